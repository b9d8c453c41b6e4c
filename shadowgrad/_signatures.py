"""The functions of the torch namespace whose first parameter must be a Tensor, and the
names torch's argument parser gives them in its error (`exp(): argument 'input' (position 1)
must be Tensor, not float`).

shadowgrad's ops accept a Python number anywhere (its own code relies on that); the public
functions listed here refuse one as torch does. The lists were read from torch 2.13 by calling
each function with a float; compat/test_tensor_fixes.py checks them against torch again.
"""

from __future__ import annotations

import dis
import functools
import os
import re
import sys
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
    if not t.__flags__ & _IMMUTABLETYPE:  # a class defined in Python: tp_name is its bare name
        return t.__name__
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


_IMMUTABLETYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: C types (static, or heap as functools')


def tensor_first(
    fn: Any, reported: str, param: str, python_only: tuple[str, int] | None = None
) -> Any:
    """fn, refusing a first positional argument that is not a Tensor with torch's TypeError.
    `python_only`: (name, position) of a parameter torch's nn.functional function takes in
    Python and does not pass on to the native one (max_pool's return_indices): left out of the
    arguments the native parser is asked about when fn fails."""
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
            if reported in PARSER:  # several overloads: torch's listing
                site = call_site()
                if site is not None and param in site[1]:  # the input given by keyword
                    reraise(reported, (), {param: args[0], **kwargs}, False)
                reraise(reported, args[1:], kwargs, False, args[:1])
            raise not_tensor_as_called(reported, param, 0, args[0])
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # torch's parser refuses before the op runs: its error, if any
            if reported in PARSER:
                if python_only is not None:
                    args = args[: python_only[1]]
                    kwargs = {k: v for k, v in kwargs.items() if k != python_only[0]}
                reraise(reported, args[1:], kwargs, False, args[:1])
            elif not args:  # torch.exp(): the Tensor is missing
                raise _missing(reported, [param]) from None
            elif type(e) is TypeError:
                _python_binding(e, reported, param, kwargs)
            raise

    checked._first_param = param  # type: ignore[attr-defined] # for _numpy_compat
    checked._alias_hook = hook  # type: ignore[attr-defined]
    return checked


_BINDING = re.compile(
    r"[\w.<>]+\(\) (takes 1 positional argument but \d+ were given"
    r"|got an unexpected keyword argument '(\w+)'|got multiple values for argument '\w+'"
    r"|missing \d+ required positional arguments?: ('.*))"  # (Python's quotes, not torch's)
)


def _python_binding(e: TypeError, reported: str, param: str, kwargs: dict[str, Any]) -> None:
    """Python's own error binding the arguments of a function torch's parser has no entry
    for here (a unary op's `<lambda>() takes 1 positional argument but 2 were given`): the
    same words under torch's name, the input given twice named as torch names it."""
    m = _BINDING.fullmatch(str(e))
    if m is None:
        return
    if m[2] == param or param in kwargs:  # torch.exp(x, input=x)
        raise TypeError(f"{reported}() got multiple values for argument '{param}'") from None
    if m[3] is not None:  # a required one left out: torch's words for its one signature
        raise _missing(reported, re.findall(r"'(\w+)'", m[3])) from None
    raise TypeError(f"{reported}() {m[1]}") from None


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
                    if name in _F_RETURN_INDICES:  # torch's F function: Python, its own object
                        wrapped = tensor_first(fn, reported, param, ("return_indices", 6))
                    setattr(mod, name, wrapped)


# torch.nn.functional's boolean_dispatch functions over a native op of the same name
_F_RETURN_INDICES = frozenset(("max_pool1d", "max_pool2d", "max_pool3d"))


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


def not_tensor_as_called(reported: str, param: str, index: int, value: Any) -> TypeError:
    """not_tensor for the parameter at `index` of the function form (0: input), its position
    worded as the user's call gave it: counted without self in the method form (`x.mm(v)`:
    position 1), none when given by keyword."""
    site = call_site()
    pos = f" (position {index + 1})"
    if site is not None:
        if param in site[1]:
            pos = ""
        elif index and site[0] - len(site[1]) <= index:
            pos = f" (position {index})"
    return TypeError(
        f"{reported}(): argument '{param}'{pos} must be Tensor, not {_type_name(value)}"
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
    only for the optional parameters, those after the first two). The positions are the
    function's, as torch's F passes the arguments on (positionally); `linear` (native in
    torch's F) words them as the user's call gave them."""
    from ._tensor import Tensor

    for i, (name, v) in enumerate(zip(names, values, strict=False)):
        if not isinstance(v, Tensor) and (v is not None or i < 2):
            if reported == "linear":
                raise not_tensor_as_called(reported, name, i, v)
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
# ScalarType?, str; "F ..." an overload of the function form only). The method form is the same
# signature without its first parameter, its positions counted without self. Read from torch
# 2.13's schemas (the ops with one overload besides out=), each entry kept only where these
# errors equal torch's for wrong calls of every parameter, in method and function form.
PARSER: dict[str, tuple[str, tuple[str, ...]]] = {}


def _declare(table: str) -> None:
    for line in table.strip().replace("\n        ", " ").splitlines():  # continued lines
        key, _, rest = line.partition(":")
        reported, _, sigs = rest.strip().partition(" ")
        PARSER[key.strip()] = (reported, tuple(s.strip() for s in sigs.split("|")))


_declare(
    """
    adaptive_avg_pool1d: adaptive_avg_pool1d Tensor input, int[1] output_size, *, Tensor? out=None
    adaptive_max_pool1d: adaptive_max_pool1d Tensor input, int[1] output_size
    alias_copy: alias_copy Tensor input, *, Tensor? out=None
    allclose: allclose Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool
        equal_nan=False
    addmm: addmm Tensor input, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor?
        out=None | F Tensor input, Tensor mat1, Tensor mat2, ScalarType out_dtype, *, Scalar
        beta=1, Scalar alpha=1, Tensor? out=None
    all: all Tensor input, *, Tensor? out=None | Tensor input, int[1]? dim=None, bool
        keepdim=False, *, Tensor? out=None | Tensor input, int dim, bool keepdim=False, *, Tensor?
        out=None
    any: any Tensor input, *, Tensor? out=None | Tensor input, int[1]? dim=None, bool
        keepdim=False, *, Tensor? out=None | Tensor input, int dim, bool keepdim=False, *, Tensor?
        out=None
    alpha_dropout: alpha_dropout Tensor input, float p, bool train
    alpha_dropout_: alpha_dropout_ Tensor input, float p, bool train
    amax: amax Tensor input, int[1] dim=[], bool keepdim=False, *, Tensor? out=None
    amin: amin Tensor input, int[1] dim=[], bool keepdim=False, *, Tensor? out=None
    aminmax: aminmax Tensor input, *, int? dim=None, bool keepdim=False, Tensor? out=None
    arctan2: arctan2 Tensor input, Tensor other, *, Tensor? out=None
    arctan2_: arctan2_ Tensor input, Tensor other
    argmax: argmax Tensor input, int? dim=None, bool keepdim=False, *, Tensor? out=None
    argmin: argmin Tensor input, int? dim=None, bool keepdim=False, *, Tensor? out=None
    atan2: atan2 Tensor input, Tensor other, *, Tensor? out=None
    atan2_: atan2_ Tensor input, Tensor other
    avg_pool1d: avg_pool1d Tensor input, int[1] kernel_size, int[1] stride=[], int[1] padding=[0],
        bool ceil_mode=False, bool count_include_pad=True, *, Tensor? out=None
    bilinear: bilinear Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None
    binary_cross_entropy_with_logits: binary_cross_entropy_with_logits Tensor input, Tensor target,
        Tensor? weight=None, Tensor? pos_weight=None, int reduction=1, *, Tensor? out=None
    bincount: bincount Tensor input, Tensor? weights=None, int minlength=0, *, Tensor? out=None
    bitwise_and: bitwise_and Tensor input, Tensor other, *, Tensor? out=None | F Scalar self, Tensor
        other | Tensor input, Scalar other, *, Tensor? out=None
    bitwise_left_shift: bitwise_left_shift Tensor input, Tensor other, *, Tensor? out=None | F
        Scalar self, Tensor other | Tensor input, Scalar other, *, Tensor? out=None
    bitwise_or: bitwise_or Tensor input, Tensor other, *, Tensor? out=None | F Scalar self, Tensor
        other | Tensor input, Scalar other, *, Tensor? out=None
    bitwise_right_shift: bitwise_right_shift Tensor input, Tensor other, *, Tensor? out=None | F
        Scalar self, Tensor other | Tensor input, Scalar other, *, Tensor? out=None
    bitwise_xor: bitwise_xor Tensor input, Tensor other, *, Tensor? out=None | F Scalar self, Tensor
        other | Tensor input, Scalar other, *, Tensor? out=None
    bmm: bmm Tensor input, Tensor mat2, *, Tensor? out=None | F Tensor input, Tensor mat2,
        ScalarType out_dtype, *, Tensor? out=None
    broadcast_to: broadcast_to Tensor input, int[] size
    unique.flags: _unique2 Tensor input, bool sorted=True, bool return_inverse=False, bool
        return_counts=False
    unique_dim: unique_dim Tensor input, int dim, bool sorted=True, bool return_inverse=False,
        bool return_counts=False
    unique_consecutive: unique_consecutive Tensor input, bool return_inverse=False, bool
        return_counts=False, int? dim=None
    copy_: copy_ Tensor input, Tensor src, bool non_blocking=False
    cat: cat Tensor[] tensors, int dim=0, *, Tensor? out=None
    celu: celu Tensor input, Scalar alpha=1.0, *, Tensor? out=None
    clamp: clamp Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor? out=None | Tensor
        input, Scalar? min=None, Scalar? max=None, *, Tensor? out=None
    celu_: celu_ Tensor input, Scalar alpha=1.0
    channel_shuffle: channel_shuffle Tensor input, int groups, *, Tensor? out=None
    cholesky: cholesky Tensor input, bool upper=False, *, Tensor? out=None
    cholesky_inverse: cholesky_inverse Tensor input, bool upper=False, *, Tensor? out=None
    cholesky_solve: cholesky_solve Tensor input, Tensor input2, bool upper=False, *, Tensor?
        out=None
    chunk: chunk Tensor input, int chunks, int dim=0
    clone: clone Tensor input, *, MemoryFormat? memory_format=None, Tensor? out=None
    combinations: combinations Tensor input, int r=2, bool with_replacement=False
    complex: complex Tensor real, Tensor imag, *, Tensor? out=None
    constant_pad_nd: constant_pad_nd Tensor input, int[] pad, Scalar value=0, *, Tensor? out=None
    contiguous: contiguous Tensor input, *, MemoryFormat memory_format=torch.contiguous_format
    conv_tbc: conv_tbc Tensor input, Tensor weight, Tensor bias, int pad=0, *, Tensor? out=None
    conv_transpose1d: conv_transpose1d Tensor input, Tensor weight, Tensor? bias=None, int[1]
        stride=[1], int[1] padding=[0], int[1] output_padding=[0], int groups=1, int[1] dilation=[1]
    conv_transpose2d: conv_transpose2d Tensor input, Tensor weight, Tensor? bias=None, int[2]
        stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1
    conv_transpose3d: conv_transpose3d Tensor input, Tensor weight, Tensor? bias=None, int[3]
        stride=1, int[3] padding=0, int[3] output_padding=0, int groups=1, int[3] dilation=1
    cosine_embedding_loss: cosine_embedding_loss Tensor input1, Tensor input2, Tensor target, float
        margin=0.0, int reduction=1
    cosine_similarity: cosine_similarity Tensor x1, Tensor x2, int dim=1, float eps=1e-08
    cov: cov Tensor input, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None
    cpu: cpu Tensor input
    cross: cross Tensor input, Tensor other, int? dim=None, *, Tensor? out=None
    cummax: cummax Tensor input, int dim, *, Tensor? out=None
    cummin: cummin Tensor input, int dim, *, Tensor? out=None
    cumprod: cumprod Tensor input, int dim, *, ScalarType? dtype=None, Tensor? out=None
    cumprod_: cumprod_ Tensor input, int dim, *, ScalarType? dtype=None
    cumsum: cumsum Tensor input, int dim, *, ScalarType? dtype=None, Tensor? out=None
    cumsum_: cumsum_ Tensor input, int dim, *, ScalarType? dtype=None
    detach_copy: detach_copy Tensor input, *, Tensor? out=None
    diag: diag Tensor input, int diagonal=0, *, Tensor? out=None
    diag_embed: diag_embed Tensor input, int offset=0, int dim1=-2, int dim2=-1, *, Tensor? out=None
    diagflat: diagflat Tensor input, int offset=0
    diagonal: diagonal Tensor input, int offset=0, int dim1=0, int dim2=1
    diagonal_copy: diagonal_copy Tensor input, int offset=0, int dim1=0, int dim2=1, *, Tensor?
        out=None
    diagonal_scatter: diagonal_scatter Tensor input, Tensor src, int offset=0, int dim1=0, int
        dim2=1, *, Tensor? out=None
    diff: diff Tensor input, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None, *,
        Tensor? out=None
    dist: dist Tensor input, Tensor other, Scalar p=2, *, Tensor? out=None
    dot: dot Tensor input, Tensor tensor, *, Tensor? out=None
    dropout: dropout Tensor input, float p, bool train
    dropout_: dropout_ Tensor input, float p, bool train
    leaky_relu: leaky_relu Tensor input, Scalar negative_slope=0.01, *, Tensor? out=None
    elu: elu Tensor input, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *, Tensor?
        out=None
    elu_: elu_ Tensor input, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1
    leaky_relu_: leaky_relu_ Tensor input, Scalar negative_slope=0.01
    embedding: embedding Tensor weight, Tensor indices, int padding_idx=-1, bool
        scale_grad_by_freq=False, bool sparse=False, *, Tensor? out=None
    embedding_renorm_: embedding_renorm_ Tensor input, Tensor indices, float max_norm, float
        norm_type
    equal: equal Tensor input, Tensor other
    expand: expand Tensor input, int[] size, *, bool implicit=False
    expand_as: expand_as Tensor input, Tensor other
    expand_copy: expand_copy Tensor input, int[] size, *, bool implicit=False, Tensor? out=None
    feature_alpha_dropout: feature_alpha_dropout Tensor input, float p, bool train
    feature_alpha_dropout_: feature_alpha_dropout_ Tensor input, float p, bool train
    feature_dropout: feature_dropout Tensor input, float p, bool train
    feature_dropout_: feature_dropout_ Tensor input, float p, bool train
    fill_diagonal_: fill_diagonal_ Tensor input, Scalar fill_value, bool wrap=False
    flatten: flatten Tensor input, int start_dim=0, int end_dim=-1
    flip: flip Tensor input, int[] dims, *, Tensor? out=None
    float_power: float_power Tensor input, Tensor exponent, *, Tensor? out=None | F Scalar self,
        Tensor exponent, *, Tensor? out=None | Tensor input, Scalar exponent, *, Tensor? out=None
    fmax: fmax Tensor input, Tensor other, *, Tensor? out=None
    fmin: fmin Tensor input, Tensor other, *, Tensor? out=None
    fmod: fmod Tensor input, Tensor other, *, Tensor? out=None | Tensor input, Scalar other, *,
        Tensor? out=None
    frobenius_norm: frobenius_norm Tensor input, int[1] dim, bool keepdim=False, *, Tensor? out=None
    gather: gather Tensor input, int dim, Tensor index, *, bool sparse_grad=False, Tensor? out=None
    gcd: gcd Tensor input, Tensor other, *, Tensor? out=None
    gcd_: gcd_ Tensor input, Tensor other
    ger: ger Tensor input, Tensor vec2, *, Tensor? out=None
    grid_sampler: grid_sampler Tensor input, Tensor grid, int interpolation_mode, int padding_mode,
        bool align_corners
    grid_sampler_2d: grid_sampler_2d Tensor input, Tensor grid, int interpolation_mode, int
        padding_mode, bool align_corners, *, Tensor? out=None
    grid_sampler_3d: grid_sampler_3d Tensor input, Tensor grid, int interpolation_mode, int
        padding_mode, bool align_corners, *, Tensor? out=None
    group_norm: group_norm Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None,
        float eps=1e-05, bool cudnn_enabled=True
    gru_cell: gru_cell Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, Tensor?
        b_hh=None
    hardshrink: hardshrink Tensor input, Scalar lambd=0.5, *, Tensor? out=None
    heaviside: heaviside Tensor input, Tensor values, *, Tensor? out=None
    heaviside_: heaviside_ Tensor input, Tensor values
    hinge_embedding_loss: hinge_embedding_loss Tensor input, Tensor target, float margin=1.0, int
        reduction=1
    histc: histc Tensor input, int bins=100, Scalar min=0, Scalar max=0, *, Tensor? out=None
    hypot: hypot Tensor input, Tensor other, *, Tensor? out=None
    hypot_: hypot_ Tensor input, Tensor other
    igamma: igamma Tensor input, Tensor other, *, Tensor? out=None
    igamma_: igamma_ Tensor input, Tensor other
    igammac: igammac Tensor input, Tensor other, *, Tensor? out=None
    igammac_: igammac_ Tensor input, Tensor other
    imag: imag Tensor input
    index_add: index_add Tensor input, int dim, Tensor index, Tensor source, *, Scalar alpha=1,
        Tensor? out=None
    index_add_: index_add_ Tensor input, int dim, Tensor index, Tensor source, *, Scalar alpha=1
    index_copy: index_copy Tensor input, int dim, Tensor index, Tensor source, *, Tensor? out=None
    index_copy_: index_copy_ Tensor input, int dim, Tensor index, Tensor source
    index_select: index_select Tensor input, int dim, Tensor index, *, Tensor? out=None
    inner: inner Tensor input, Tensor other, *, Tensor? out=None
    is_same_size: is_same_size Tensor input, Tensor other
    is_set_to: is_set_to Tensor input, Tensor tensor
    isclose: isclose Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool
        equal_nan=False
    kl_div: kl_div Tensor input, Tensor target, int reduction=1, *, bool log_target=False
    kron: kron Tensor input, Tensor other, *, Tensor? out=None
    kthvalue: kthvalue Tensor input, int k, int dim=-1, bool keepdim=False, *, Tensor? out=None
    layer_norm: layer_norm Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor?
        bias=None, float eps=1e-05, bool cudnn_enable=True
    lcm: lcm Tensor input, Tensor other, *, Tensor? out=None
    lcm_: lcm_ Tensor input, Tensor other
    ldexp: ldexp Tensor input, Tensor other, *, Tensor? out=None
    ldexp_: ldexp_ Tensor input, Tensor other
    lerp: lerp Tensor input, Tensor end, Tensor weight, *, Tensor? out=None | Tensor input, Tensor
        end, Scalar weight, *, Tensor? out=None
    linalg_cholesky: linalg_cholesky Tensor input, *, bool upper=False, Tensor? out=None
    linalg_cholesky_ex: linalg_cholesky_ex Tensor input, *, bool upper=False, bool
        check_errors=False, Tensor? out=None
    linalg_cross: linalg_cross Tensor input, Tensor other, *, int dim=-1, Tensor? out=None
    linalg_det: linalg_det Tensor A, *, Tensor? out=None
    linalg_diagonal: linalg_diagonal Tensor A, *, int offset=0, int dim1=-2, int dim2=-1
    linalg_eig: linalg_eig Tensor input, *, Tensor? out=None
    linalg_eigvals: linalg_eigvals Tensor input, *, Tensor? out=None
    linalg_householder_product: linalg_householder_product Tensor input, Tensor tau, *, Tensor?
        out=None
    linalg_inv: linalg_inv Tensor A, *, Tensor? out=None
    linalg_inv_ex: linalg_inv_ex Tensor A, *, bool check_errors=False, Tensor? out=None
    linalg_ldl_factor: linalg_ldl_factor Tensor input, *, bool hermitian=False, Tensor? out=None
    linalg_ldl_factor_ex: linalg_ldl_factor_ex Tensor input, *, bool hermitian=False, bool
        check_errors=False, Tensor? out=None
    linalg_ldl_solve: linalg_ldl_solve Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False,
        Tensor? out=None
    linalg_lstsq: linalg_lstsq Tensor input, Tensor b, float? rcond=None, *, str? driver=None,
        Tensor? out=None
    linalg_lu: linalg_lu Tensor A, *, bool pivot=True, Tensor? out=None
    linalg_lu_factor: linalg_lu_factor Tensor A, *, bool pivot=True, Tensor? out=None
    linalg_lu_factor_ex: linalg_lu_factor_ex Tensor A, *, bool pivot=True, bool check_errors=False,
        Tensor? out=None
    linalg_lu_solve: linalg_lu_solve Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool
        adjoint=False, Tensor? out=None
    linalg_matmul: linalg_matmul Tensor input, Tensor other, *, Tensor? out=None
    linalg_matrix_exp: linalg_matrix_exp Tensor input, *, Tensor? out=None
    linalg_matrix_power: linalg_matrix_power Tensor input, int n, *, Tensor? out=None
    linalg_slogdet: linalg_slogdet Tensor A, *, Tensor? out=None
    linalg_solve: linalg_solve Tensor A, Tensor B, *, bool left=True, Tensor? out=None
    linalg_solve_ex: linalg_solve_ex Tensor A, Tensor B, *, bool left=True, bool check_errors=False,
        Tensor? out=None
    linalg_svd: linalg_svd Tensor A, bool full_matrices=True, *, str? driver=None, Tensor? out=None
    linalg_svdvals: linalg_svdvals Tensor A, *, str? driver=None, Tensor? out=None
    linalg_tensorinv: linalg_tensorinv Tensor input, int ind=2, *, Tensor? out=None
    linalg_tensorsolve: linalg_tensorsolve Tensor input, Tensor other, int[]? dims=None, *, Tensor?
        out=None
    linalg_vander: linalg_vander Tensor x, *, int? N=None
    linalg_vecdot: linalg_vecdot Tensor x, Tensor y, *, int dim=-1, Tensor? out=None
    linalg_vector_norm: linalg_vector_norm Tensor input, Scalar ord=2, int[1]? dim=None, bool
        keepdim=False, *, ScalarType? dtype=None, Tensor? out=None
    log_softmax: log_softmax Tensor input, int dim, ScalarType? dtype=None, *, Tensor? out=None
    logaddexp2: logaddexp2 Tensor input, Tensor other, *, Tensor? out=None
    logaddexp: logaddexp Tensor input, Tensor other, *, Tensor? out=None
    logcumsumexp: logcumsumexp Tensor input, int dim, *, Tensor? out=None
    logical_and: logical_and Tensor input, Tensor other, *, Tensor? out=None
    logical_and_: logical_and_ Tensor input, Tensor other
    logical_or: logical_or Tensor input, Tensor other, *, Tensor? out=None
    logical_or_: logical_or_ Tensor input, Tensor other
    logical_xor: logical_xor Tensor input, Tensor other, *, Tensor? out=None
    logical_xor_: logical_xor_ Tensor input, Tensor other
    logit: logit Tensor input, float? eps=None, *, Tensor? out=None
    logit_: logit_ Tensor input, float? eps=None
    logsumexp: logsumexp Tensor input, int[1] dim, bool keepdim=False, *, Tensor? out=None
    lu_solve: lu_solve Tensor input, Tensor LU_data, Tensor LU_pivots, *, Tensor? out=None
    lu_unpack: lu_unpack Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool
        unpack_pivots=True, *, Tensor? out=None
    margin_ranking_loss: margin_ranking_loss Tensor input1, Tensor input2, Tensor target, float
        margin=0.0, int reduction=1
    masked_scatter: masked_scatter Tensor input, Tensor mask, Tensor source, *, Tensor? out=None
    masked_scatter_: masked_scatter_ Tensor input, Tensor mask, Tensor source
    masked_select: masked_select Tensor input, Tensor mask, *, Tensor? out=None
    matmul: matmul Tensor input, Tensor other, *, Tensor? out=None
    matrix_power: matrix_power Tensor input, int n, *, Tensor? out=None
    max_pool1d: max_pool1d Tensor input, int[1] kernel_size, int[1] stride=[], int[1] padding=[0],
        int[1] dilation=[1], bool ceil_mode=False
    max_pool1d_with_indices: max_pool1d_with_indices Tensor input, int[1] kernel_size, int[1]
        stride=[], int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False
    masked_fill: masked_fill Tensor input, Tensor mask, Tensor value | Tensor input, Tensor mask,
        Scalar value
    masked_fill_: masked_fill_ Tensor input, Tensor mask, Tensor value | Tensor input, Tensor
        mask, Scalar value
    max: max Tensor input, *, Tensor? out=None | Tensor input, Tensor other, *, Tensor? out=None |
        Tensor input, int dim, bool keepdim=False, *, Tensor[]? out=None
    maximum: maximum Tensor input, Tensor other, *, Tensor? out=None
    mean: mean Tensor input, *, ScalarType? dtype=None, Tensor? out=None | Tensor input, int[1]?
        dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None
    median: median Tensor input | Tensor input, int dim, bool keepdim=False, *, Tensor[]? out=None
    min: min Tensor input, *, Tensor? out=None | Tensor input, Tensor other, *, Tensor? out=None |
        Tensor input, int dim, bool keepdim=False, *, Tensor[]? out=None
    minimum: minimum Tensor input, Tensor other, *, Tensor? out=None
    hsplit: hsplit Tensor input, int sections | Tensor input, int[] indices
    vsplit: vsplit Tensor input, int sections | Tensor input, int[] indices
    dsplit: dsplit Tensor input, int sections | Tensor input, int[] indices
    mm: mm Tensor input, Tensor mat2, *, Tensor? out=None | F Tensor input, Tensor mat2, ScalarType
        out_dtype, *, Tensor? out=None
    mode: mode Tensor input, int dim=-1, bool keepdim=False, *, Tensor? out=None
    multinomial: multinomial Tensor input, int num_samples, bool replacement=False, *, Generator?
        generator=None, Tensor? out=None
    mv: mv Tensor input, Tensor vec, *, Tensor? out=None
    mvlgamma: mvlgamma Tensor input, int p, *, Tensor? out=None
    mvlgamma_: mvlgamma_ Tensor input, int p
    nan_to_num: nan_to_num Tensor input, float? nan=None, float? posinf=None, float? neginf=None, *,
        Tensor? out=None
    nan_to_num_: nan_to_num_ Tensor input, float? nan=None, float? posinf=None, float? neginf=None
    nanmean: nanmean Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None,
        Tensor? out=None
    nanmedian: nanmedian Tensor input | Tensor input, int dim, bool keepdim=False, *, Tensor[]?
        out=None
    nansum: nansum Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None,
        Tensor? out=None
    narrow_copy: narrow_copy Tensor input, int dim, int start, int length, *, Tensor? out=None
    native_channel_shuffle: native_channel_shuffle Tensor input, int groups
    new_empty: new_empty Tensor input, int[] size, *, ScalarType? dtype=None, Layout? layout=None,
        Device? device=None, bool? pin_memory=False, bool? requires_grad=False, Tensor? out=None
    new_ones: new_ones Tensor input, int[] size, *, ScalarType? dtype=None, Layout? layout=None,
        Device? device=None, bool? pin_memory=False, bool? requires_grad=False, Tensor? out=None
    new_zeros: new_zeros Tensor input, int[] size, *, ScalarType? dtype=None, Layout? layout=None,
        Device? device=None, bool? pin_memory=False, bool? requires_grad=False, Tensor? out=None
    nextafter: nextafter Tensor input, Tensor other, *, Tensor? out=None
    nextafter_: nextafter_ Tensor input, Tensor other
    norm_except_dim: norm_except_dim Tensor v, int pow=2, int dim=0
    orgqr: orgqr Tensor input, Tensor input2, *, Tensor? out=None
    ormqr: ormqr Tensor input, Tensor input2, Tensor input3, bool left=True, bool transpose=False,
        *, Tensor? out=None
    outer: outer Tensor input, Tensor vec2, *, Tensor? out=None
    pairwise_distance: pairwise_distance Tensor x1, Tensor x2, float p=2.0, float eps=1e-06, bool
        keepdim=False
    pdist: pdist Tensor input, float p=2.0
    permute: permute Tensor input, int[] dims
    permute_copy: permute_copy Tensor input, int[] dims, *, Tensor? out=None
    pinverse: pinverse Tensor input, float rcond=1e-15
    pixel_shuffle: pixel_shuffle Tensor input, int upscale_factor, *, Tensor? out=None
    pixel_unshuffle: pixel_unshuffle Tensor input, int downscale_factor, *, Tensor? out=None
    poisson_nll_loss: poisson_nll_loss Tensor input, Tensor target, bool log_input, bool full, float
        eps, int reduction
    prod: prod Tensor input, *, ScalarType? dtype=None | Tensor input, int dim, bool keepdim=False,
        *, ScalarType? dtype=None, Tensor? out=None
    polar: polar Tensor abs, Tensor angle, *, Tensor? out=None
    polygamma_: polygamma_ Tensor input, int n
    pow: pow Tensor input, Tensor exponent, *, Tensor? out=None | F Scalar self, Tensor exponent, *,
        Tensor? out=None | Tensor input, Scalar exponent, *, Tensor? out=None
    prelu: prelu Tensor input, Tensor weight
    put: put Tensor input, Tensor index, Tensor source, bool accumulate=False, *, Tensor? out=None
    put_: put_ Tensor input, Tensor index, Tensor source, bool accumulate=False
    qr: qr Tensor input, bool some=True, *, Tensor? out=None
    real: real Tensor input
    remainder: remainder Tensor input, Tensor other, *, Tensor? out=None | F Scalar self, Tensor
        other | Tensor input, Scalar other, *, Tensor? out=None
    renorm: renorm Tensor input, Scalar p, int dim, Scalar maxnorm, *, Tensor? out=None
    renorm_: renorm_ Tensor input, Scalar p, int dim, Scalar maxnorm
    repeat: repeat Tensor input, int[] repeats, *, Tensor? out=None
    requires_grad_: requires_grad_ Tensor input, bool requires_grad=True
    reshape: reshape Tensor input, int[] shape
    reshape_as: reshape_as Tensor input, Tensor other
    resize_: resize_ Tensor input, int[] size, *, MemoryFormat? memory_format=None
    resize_as_: resize_as_ Tensor input, Tensor the_template, *, MemoryFormat? memory_format=None
    rms_norm: rms_norm Tensor input, int[] normalized_shape, Tensor? weight=None, float? eps=None
    rnn_relu_cell: rnn_relu_cell Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor?
        b_ih=None, Tensor? b_hh=None
    rnn_tanh_cell: rnn_tanh_cell Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor?
        b_ih=None, Tensor? b_hh=None
    roll: roll Tensor input, int[1] shifts, int[1] dims=[], *, Tensor? out=None
    scatter: scatter Tensor input, int dim, Tensor index, Tensor src, *, Tensor? out=None | Tensor
        input, int dim, Tensor index, Tensor src, *, str reduce, Tensor? out=None | Tensor input,
        int dim, Tensor index, Scalar value, *, Tensor? out=None | Tensor input, int dim, Tensor
        index, Scalar value, *, str reduce, Tensor? out=None
    scatter_add: scatter_add Tensor input, int dim, Tensor index, Tensor src, *, Tensor? out=None
    scatter_add_: scatter_add_ Tensor input, int dim, Tensor index, Tensor src
    select: select Tensor input, int dim, int index
    select_copy: select_copy Tensor input, int dim, int index, *, Tensor? out=None
    select_scatter: select_scatter Tensor input, Tensor src, int dim, int index, *, Tensor? out=None
    selu: selu Tensor input
    selu_: selu_ Tensor input
    slice_copy: slice_copy Tensor input, int dim=0, int? start=None, int? end=None, int step=1, *,
        Tensor? out=None
    slice_scatter: slice_scatter Tensor input, Tensor src, int dim=0, int? start=None, int?
        end=None, int step=1, *, Tensor? out=None
    softmax: softmax Tensor input, int dim, ScalarType? dtype=None, *, Tensor? out=None
    special_airy_ai: special_airy_ai Tensor x, *, Tensor? out=None
    special_bessel_j0: special_bessel_j0 Tensor input, *, Tensor? out=None
    special_bessel_j1: special_bessel_j1 Tensor input, *, Tensor? out=None
    special_bessel_y0: special_bessel_y0 Tensor input, *, Tensor? out=None
    special_bessel_y1: special_bessel_y1 Tensor input, *, Tensor? out=None
    special_digamma: special_digamma Tensor input, *, Tensor? out=None
    special_entr: special_entr Tensor input, *, Tensor? out=None
    special_erf: special_erf Tensor input, *, Tensor? out=None
    special_erfc: special_erfc Tensor input, *, Tensor? out=None
    special_erfcx: special_erfcx Tensor input, *, Tensor? out=None
    special_erfinv: special_erfinv Tensor input, *, Tensor? out=None
    special_exp2: special_exp2 Tensor input, *, Tensor? out=None
    special_expit: special_expit Tensor input, *, Tensor? out=None
    special_expm1: special_expm1 Tensor input, *, Tensor? out=None
    special_gammainc: special_gammainc Tensor input, Tensor other, *, Tensor? out=None
    special_gammaincc: special_gammaincc Tensor input, Tensor other, *, Tensor? out=None
    special_gammaln: special_gammaln Tensor input, *, Tensor? out=None
    special_i0: special_i0 Tensor input, *, Tensor? out=None
    special_i0e: special_i0e Tensor input, *, Tensor? out=None
    special_i1: special_i1 Tensor input, *, Tensor? out=None
    special_i1e: special_i1e Tensor input, *, Tensor? out=None
    special_log1p: special_log1p Tensor input, *, Tensor? out=None
    special_log_ndtr: special_log_ndtr Tensor input, *, Tensor? out=None
    special_log_softmax: special_log_softmax Tensor input, int dim, *, ScalarType? dtype=None
    special_logit: special_logit Tensor input, float? eps=None, *, Tensor? out=None
    special_logsumexp: special_logsumexp Tensor input, int[1] dim, bool keepdim=False, *, Tensor?
        out=None
    special_modified_bessel_i0: special_modified_bessel_i0 Tensor input, *, Tensor? out=None
    special_modified_bessel_i1: special_modified_bessel_i1 Tensor input, *, Tensor? out=None
    special_modified_bessel_k0: special_modified_bessel_k0 Tensor input, *, Tensor? out=None
    special_modified_bessel_k1: special_modified_bessel_k1 Tensor input, *, Tensor? out=None
    special_multigammaln: special_multigammaln Tensor input, int p, *, Tensor? out=None
    special_ndtr: special_ndtr Tensor input, *, Tensor? out=None
    special_ndtri: special_ndtri Tensor input, *, Tensor? out=None
    special_psi: special_psi Tensor input, *, Tensor? out=None
    special_round: special_round Tensor input, *, int decimals=0, Tensor? out=None
    special_scaled_modified_bessel_k0: special_scaled_modified_bessel_k0 Tensor x, *, Tensor?
        out=None
    special_scaled_modified_bessel_k1: special_scaled_modified_bessel_k1 Tensor x, *, Tensor?
        out=None
    special_sinc: special_sinc Tensor input, *, Tensor? out=None
    special_softmax: special_softmax Tensor input, int dim, ScalarType? dtype=None
    special_spherical_bessel_j0: special_spherical_bessel_j0 Tensor x, *, Tensor? out=None
    argsort: argsort Tensor input, *, bool stable, int dim=-1, bool descending=False, Tensor?
        out=None | Tensor input, int dim=-1, bool descending=False
    randint: randint int high, int[] size, *, Generator generator, Tensor? out=None, ScalarType?
        dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, bool
        requires_grad=False | int high, int[] size, *, Tensor? out=None, ScalarType? dtype=None,
        Layout? layout=None, Device? device=None, bool? pin_memory=False, bool requires_grad=False |
        int low, int high, int[] size, *, Generator generator, Tensor? out=None, ScalarType?
        dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, bool
        requires_grad=False | int low, int high, int[] size, *, Tensor? out=None, ScalarType?
        dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, bool
        requires_grad=False
    round: round Tensor input, *, Tensor? out=None | Tensor input, *, int decimals, Tensor?
        out=None
    F.avg_pool2d: avg_pool2d Tensor input, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
        bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor?
        out=None
    F.huber_loss: huber_loss Tensor input, Tensor target, int reduction=1, float delta=1.0, *,
        Tensor? out=None
    F.max_pool2d: max_pool2d Tensor input, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
        int[2] dilation=1, bool ceil_mode=False
    N.linalg_vector_norm: linalg_vector_norm Tensor input, Scalar ord=2, int[1]? dim=None, bool
        keepdim=False, *, ScalarType? dtype=None, Tensor? out=None
    R.div: div Tensor input, Tensor other, *, Tensor? out=None | Tensor input, Tensor other, *,
        str? rounding_mode, Tensor? out=None | Tensor input, Scalar other, *, str? rounding_mode
    F.one_hot: one_hot Tensor input, int num_classes=-1
    F.pad: pad Tensor input, int[] pad, str mode="constant", float? value=None
    F.smooth_l1_loss: smooth_l1_loss Tensor input, Tensor target, int reduction=1, float beta=1.0,
        *, Tensor? out=None
    F.softplus: softplus Tensor input, Scalar beta=1, Scalar threshold=20, *, Tensor? out=None
    F.softshrink: softshrink Tensor input, Scalar lambd=0.5, *, Tensor? out=None
    conv1d: conv1d Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1]
        padding=0, int[1] dilation=1, int groups=1 | Tensor input, Tensor weight, Tensor?
        bias=None, int[1] stride=1, str padding="valid", int[1] dilation=1, int groups=1
    conv2d: conv2d Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2]
        padding=0, int[2] dilation=1, int groups=1 | Tensor input, Tensor weight, Tensor?
        bias=None, int[2] stride=1, str padding="valid", int[2] dilation=1, int groups=1
    conv3d: conv3d Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3]
        padding=0, int[3] dilation=1, int groups=1 | Tensor input, Tensor weight, Tensor?
        bias=None, int[3] stride=1, str padding="valid", int[3] dilation=1, int groups=1
    im2col: im2col Tensor input, int[2] kernel_size, int[2] dilation, int[2] padding, int[2]
        stride
    col2im: col2im Tensor input, int[2] output_size, int[2] kernel_size, int[2] dilation, int[2]
        padding, int[2] stride
    clamp_min: clamp_min Tensor input, Tensor min, *, Tensor? out=None | Tensor input, Scalar min,
        *, Tensor? out=None
    clamp_max: clamp_max Tensor input, Tensor max, *, Tensor? out=None | Tensor input, Scalar max,
        *, Tensor? out=None
    addcmul: addcmul Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor?
        out=None
    addcdiv: addcdiv Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor?
        out=None
    cross_entropy_loss: cross_entropy_loss Tensor input, Tensor target, Tensor? weight=None, int
        reduction=1, int ignore_index=-100, float label_smoothing=0.0
    instance_norm: instance_norm Tensor input, Tensor? weight, Tensor? bias, Tensor?
        running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool
        cudnn_enabled
    F.hardtanh_: hardtanh_ Tensor input, Scalar min_val=-1, Scalar max_val=1
    glu: glu Tensor input, int dim=-1, *, Tensor? out=None
    rrelu: rrelu Tensor input, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool
        training=False, Generator? generator=None
    std: std Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor?
        out=None | Tensor input, int[1]? dim=None, *, Scalar? correction=None, bool
        keepdim=False, Tensor? out=None | Tensor input, bool unbiased=True
    var: var Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor?
        out=None | Tensor input, int[1]? dim=None, *, Scalar? correction=None, bool
        keepdim=False, Tensor? out=None | Tensor input, bool unbiased=True
    std_mean: std_mean Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False |
        Tensor input, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False | Tensor
        input, bool unbiased=True
    var_mean: var_mean Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False |
        Tensor input, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False | Tensor
        input, bool unbiased=True
    count_nonzero: count_nonzero Tensor input, int? dim=None | Tensor input, int[] dim
    sort: sort Tensor input, *, bool? stable, int dim=-1, bool descending=False, Tensor[]? out=None
        | Tensor input, int dim=-1, bool descending=False, *, Tensor[]? out=None
    split: split Tensor input, int split_size, int dim=0 | Tensor input, int[] split_size, int dim=0
    stack: stack Tensor[] tensors, int dim=0, *, Tensor? out=None
    split_copy: split_copy Tensor input, int split_size, int dim=0, *, Tensor? out=None
    split_with_sizes: split_with_sizes Tensor input, int[] split_sizes, int dim=0
    split_with_sizes_copy: split_with_sizes_copy Tensor input, int[] split_sizes, int dim=0, *,
        Tensor? out=None
    sum: sum Tensor input, *, ScalarType? dtype=None | Tensor input, int[1]? dim, bool
        keepdim=False, *, ScalarType? dtype=None, Tensor? out=None
    sum_to_size: sum_to_size Tensor input, int[] size
    svd: svd Tensor input, bool some=True, bool compute_uv=True, *, Tensor? out=None
    swapaxes: swapaxes Tensor input, int axis0, int axis1
    swapaxes_: swapaxes_ Tensor input, int axis0, int axis1
    swapdims: swapdims Tensor input, int dim0, int dim1
    swapdims_: swapdims_ Tensor input, int dim0, int dim1
    t_copy: t_copy Tensor input, *, Tensor? out=None
    take: take Tensor input, Tensor index, *, Tensor? out=None
    take_along_dim: take_along_dim Tensor input, Tensor indices, int? dim=None, *, Tensor? out=None
    threshold: threshold Tensor input, Scalar threshold, Scalar value, *, Tensor? out=None
    threshold_: threshold_ Tensor input, Scalar threshold, Scalar value
    tile: tile Tensor input, int[] dims
    topk: topk Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor?
        out=None
    transpose: transpose Tensor input, int dim0, int dim1
    transpose_: transpose_ Tensor input, int dim0, int dim1
    transpose_copy: transpose_copy Tensor input, int dim0, int dim1, *, Tensor? out=None
    triangular_solve: triangular_solve Tensor input, Tensor A, bool upper=True, bool
        transpose=False, bool unitriangular=False, *, Tensor? out=None
    tril: tril Tensor input, int diagonal=0, *, Tensor? out=None
    tril_: tril_ Tensor input, int diagonal=0
    triplet_margin_loss: triplet_margin_loss Tensor anchor, Tensor positive, Tensor negative, float
        margin=1.0, float p=2.0, float eps=1e-06, bool swap=False, int reduction=1
    triu: triu Tensor input, int diagonal=0, *, Tensor? out=None
    triu_: triu_ Tensor input, int diagonal=0
    type_as: type_as Tensor input, Tensor other
    unbind: unbind Tensor input, int dim=0
    unbind_copy: unbind_copy Tensor input, int dim=0, *, Tensor? out=None
    unflatten: unflatten Tensor input, int dim, int[] sizes
    unfold: unfold Tensor input, int dimension, int size, int step
    unfold_copy: unfold_copy Tensor input, int dimension, int size, int step, *, Tensor? out=None
    unsafe_chunk: unsafe_chunk Tensor input, int chunks, int dim=0
    unsafe_split: unsafe_split Tensor input, int split_size, int dim=0, *, Tensor? out=None
    unsafe_split_with_sizes: unsafe_split_with_sizes Tensor input, int[] split_sizes, int dim=0, *,
        Tensor? out=None
    unsqueeze: unsqueeze Tensor input, int dim
    unsqueeze_: unsqueeze_ Tensor input, int dim
    unsqueeze_copy: unsqueeze_copy Tensor input, int dim, *, Tensor? out=None
    vander: vander Tensor x, int? N=None, bool increasing=False
    vdot: vdot Tensor input, Tensor other, *, Tensor? out=None
    view_as: view_as Tensor input, Tensor other
    view_as_complex: view_as_complex Tensor input
    view_as_real: view_as_real Tensor input
    where: where Tensor condition | Tensor condition, Tensor input, Tensor other, *, Tensor?
        out=None | Tensor condition, Scalar self, Tensor other | Tensor condition, Tensor input,
        Scalar other | Tensor condition, Scalar self, Scalar other
    xlogy: xlogy Tensor input, Tensor other, *, Tensor? out=None | F Scalar self, Tensor other, *,
        Tensor? out=None | Tensor input, Scalar other, *, Tensor? out=None
    """
)


class _Param:
    __slots__ = ("kind", "kwonly", "name", "none", "optional", "size", "text")

    def __init__(self, spec: str, kwonly: bool) -> None:
        decl, eq, default = spec.partition("=")
        kind, name = decl.split()
        # an int list defaulting to [] takes None too (roll's dims)
        self.none = kind.endswith("?") or default.strip() in ("None", "[]")
        self.kind = kind.rstrip("?")
        self.size = self.kind in ("int[1]", "int[2]", "int[3]")  # a bare int taken too
        if self.size:
            self.kind = "int[]"
        self.name, self.optional, self.kwonly = name, bool(eq), kwonly
        shown = _SHOWN.get(self.kind, self.kind)
        self.text = f"{shown} {name}" + (f" = {default.strip()}" if eq else "")


_SHOWN = {
    "int[]": "tuple of ints",
    "ScalarType": "torch.dtype",
    "MemoryFormat": "torch.memory_format",
    "Scalar": "Number",
    "Tensor[]": "tuple of Tensors",
    "Generator": "torch.Generator",
    "Layout": "torch.layout",
    "Device": "torch.device",
}


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
    if p.name == "out":  # a Tensor or, for several outputs, a tuple: the op's own check
        return True, -1
    k = p.kind
    if k == "Tensor":
        return isinstance(v, Tensor), -1
    if k == "int":
        return _is_index(v), -1
    if k == "bool":
        return isinstance(v, bool), -1  # (a numpy bool is refused too)
    if k in ("float", "Scalar"):
        if isinstance(v, Tensor):
            return v.dim() == 0 and not v.requires_grad, -1
        # numpy's scalars are numbers to torch's parser, its bool included
        ok = (float, int, np.integer, np.floating, np.bool_) + ((complex,) if k == "Scalar" else ())
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
    if k == "Tensor[]":  # (its elements: the op's own check, tensor_list's)
        return isinstance(v, (list, tuple)), -1
    if k == "MemoryFormat":
        from ._formats import memory_format

        return isinstance(v, memory_format), -1
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
    # (varargs: a required int list only, not std's `int[1]? dim=None`: x.std(0, 1) is refused)
    varargs = (
        npos == 1
        and params[0].kind == "int[]"
        and not params[0].optional
        and nargs >= 1
        and _is_index(args[0])
    )
    if nargs > npos and not varargs:
        # torch's extra_args: from the required count (keyword-only ones too: "from 1 to 0")
        lo = sum(not p.optional for p in params)
        s = "" if npos == 1 and lo == npos else "s"
        were = "was" if nargs == 1 and lo == npos else "were"
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
                # torch names every required one from here, given by keyword or not
                return _missing(reported, [q.name for q in params[i:] if not q.optional])
            continue
        ok, bad = _check(p, v)
        if ok and p.kind == "int" and type(v) is int and not -(2**63) <= v < 2**63:
            return ValueError("Overflow when unpacking long long")  # type: ignore[return-value]
        pos = "" if kw else f" (position {i + 1})"
        if not ok:
            shown = _SHOWN.get(p.kind, p.kind)
            if bad >= 0 and not kw:  # (by keyword: torch names the list's type)
                return TypeError(
                    f"{reported}(): argument '{p.name}'{pos} must be {shown}, but found element "
                    f"of type {type(v[bad]).__name__} at pos {bad}"
                )
            return TypeError(
                f"{reported}(): argument '{p.name}'{pos} must be {shown}, not {_type_name(v)}"
            )
        if p.kind == "int[]" and isinstance(v, (list, tuple)):
            for j, e in enumerate(v):  # (past the first, torch's unpacking takes a bool)
                if not _is_index(e) and not (j and e.__class__ is bool):
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
    for e in errors:  # an int or a list element torch's parser could not read: raised then
        if type(e) is ValueError or "failed to unpack the object" in str(e):
            return e
    n = len(args) + len(kwargs)
    plausible = [
        e
        for e, ps in zip(errors, overloads, strict=True)
        if sum(not p.optional for p in ps) <= n <= len(ps)
    ]
    if len(plausible) == 1:
        return plausible[0]
    # torch's: each "type, " then each "name=type, ", the last ", " cut when there are args
    got = "".join(f"{_got(a)}, " for a in args)
    # (the keywords as torch's unordered_map gives them back: for two, the reverse of the call's)
    got += "".join(f"{k}={_got(v)}, " for k, v in reversed(kwargs.items()))
    if args:
        got = got[:-2]
    listing = ""
    for ps in overloads:
        listing += f" * ({_listed(ps)})\n"
        # torch's listing splits the option's text at commas ("*" counts, "()" is one item)
        items = max(1, len(ps) + any(p.kwonly for p in ps))
        if items == len(args) + len(kwargs) and not kwargs:
            # each argument against the item at its place ("*" and past the end: no match)
            slots: list[_Param | None] = [p for p in ps if not p.kwonly]
            slots += [None] * (len(ps) - len(slots) + any(p.kwonly for p in ps))
            marked = ", ".join(
                _arg_desc(a)
                if i < len(slots) and slots[i] is not None and _listing_match(slots[i], a)
                else f"!{_arg_desc(a)}!"
                for i, a in enumerate(args)
            )
            listing += (
                f"      didn't match because some of the arguments have invalid types: ({marked})\n"
            )
        elif kwargs and items == len(args) + len(kwargs):
            # torch's _tryMatchKwargs: each keyword among the "names" of the option's last
            # items (an item's last word: a default's value where it has one), one more item
            # where the option takes out=
            texts = [p.text for p in ps if not p.kwonly]
            texts += ["*", *(p.text for p in ps if p.kwonly)] if len(texts) < len(ps) else []
            start = max(len(texts) - len(kwargs) - any(p.name == "out" for p in ps), 0)
            names = {t[t.rfind(" ") + 1 :] for t in texts[start:]}
            bad = [k for k in reversed(kwargs) if k not in names]
            if bad:
                listing += (
                    "      didn't match because some of the keywords were incorrect: "
                    f"{', '.join(bad)}\n"
                )
            else:  # the positional arguments, then the keywords in the option's order
                slots = [p for p in ps if not p.kwonly]
                descs = [
                    _arg_desc(a)
                    if i < len(slots) and _listing_match(slots[i], a)
                    else f"!{_arg_desc(a)}!"
                    for i, a in enumerate(args)
                ]
                for p in ps:
                    if p.name in kwargs:
                        d = f"{p.name}={_arg_desc(kwargs[p.name])}"
                        descs.append(d if _listing_match(p, kwargs[p.name]) else f"!{d}!")
                marked = "".join(f"{d}, " for d in descs)
                listing += (
                    "      didn't match because some of the arguments have invalid types: "
                    f"({marked[:-2] if args else marked})\n"
                )
    return TypeError(
        f"{reported}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{listing}"
    )


def _got(a: Any) -> str:
    from ._tensor import Tensor

    return type(a).__name__ if isinstance(a, Tensor) else _type_name(a)


def _listing_match(p: _Param, a: Any) -> bool:
    """The listing's own test of an argument against a parameter (a Number matches nothing:
    torch's listing marks an int or a float given for one; nor does a parameter with a
    default, whose text torch's listing reads as a type "int dim =")."""
    if p.kind == "Scalar" or p.optional:
        return False
    if p.kind == "int[]" and not isinstance(a, (list, tuple)):  # a bare int: not a "tuple"
        return False
    return a is not None and _check(p, a)[0]


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
    if not kwargs and not first:  # the op called directly: the parameters given by keyword
        site = _call_keywords(key, len(args), method)
        if site is not None:
            args, kwargs = site(args)
    err = parser_error(key, tuple(first) + tuple(args), kwargs, method)
    if err is not None:
        raise err from None


_PKG = os.path.dirname(__file__) + os.sep


def call_site() -> tuple[int, tuple[str, ...]] | None:
    """The user's call into shadowgrad, for an error path that words torch's parser error: the
    number of arguments the calling instruction passed (self not counted in a method call)
    and the names it gave by keyword (Python 3.11's CALL and KW_NAMES), or None where that
    cannot be told (a call through *args/**kwargs or an operator, a deep chain of ops)."""
    frame = sys._getframe(1)
    for _ in range(12):
        if frame is None:
            return None
        if not frame.f_code.co_filename.startswith(_PKG):
            try:
                return _call_instructions(frame.f_code).get(frame.f_lasti)
            except Exception:  # an instruction set this reading does not know
                return None
        frame = frame.f_back
    return None


def _call_keywords(key: str, nargs: int, method: bool = True) -> Any:
    """For an op that names its method form's parameters positionally to `reraise` (every one,
    defaults included): a function `args -> (args, kwargs)` putting the parameters the user's
    call named by keyword into kwargs (torch's error then names no position), or None where
    that cannot be told or no keyword was given."""
    site = call_site()
    if not site or not site[1]:
        return None
    names = site[1]
    npos = site[0] - len(names)  # the arguments the call gave positionally
    for s in PARSER[key][1]:
        if s[:2] == "F ":  # an overload of the function form only
            if method:
                continue
            s = s[2:]
        params = [p.name for p in _params(s, method)]
        if set(names) <= set(params[:nargs]):
            pos = {p: i for i, p in enumerate(params[:nargs])}
            if npos > min(pos[n] for n in names):
                return None  # not this call's arguments

            def split(args: tuple[Any, ...], pos: dict[str, int] = pos) -> Any:
                return args[:npos], {n: args[pos[n]] for n in names}

            return split
    return None


@functools.cache
def _call_instructions(code: Any) -> dict[int, tuple[int, tuple[str, ...]]]:
    """offset of each CALL's last cache entry (a frame's f_lasti during the call) -> the
    call's argument count and keyword names"""
    out: dict[int, tuple[int, tuple[str, ...]]] = {}
    kw: tuple[str, ...] = ()
    last = None
    for ins in dis.get_instructions(code, show_caches=True):
        if ins.opname == "KW_NAMES":
            kw = ins.argval if isinstance(ins.argval, tuple) else code.co_consts[ins.arg]
        elif ins.opname == "CALL":
            last = (ins.arg, kw)
            kw = ()
            out[ins.offset] = last
            continue
        elif ins.opname == "CACHE" and last is not None:
            out[ins.offset] = last
            continue
        last = None
    return out


# the wrappers around the public functions and methods (tensor_first's, _numpy_compat's, the
# out= and device wrappers, the per-op argument checks)
_WRAPPER_NAMES = frozenset(
    ("checked", "aliased", "call", "wrapper", "with_out", "inner", "method")  # (method: _method's)
)


@functools.cache
def _generic_wrapper_code() -> Any:
    """The code of _numpy_compat's generic wrapper (a function form's, as torch.addmm's)."""
    from ._numpy_compat import _CODE, _GENERIC

    module = _CODE.get(_GENERIC)
    consts = module.co_consts if module is not None else ()
    return next((c for c in consts if getattr(c, "co_name", "") == "aliased"), None)


def reraise_as_called(
    key: str,
    names: tuple[str, ...],
    values: tuple[Any, ...],
    method: bool = True,
    self: Any = None,
    depth: int = 0,
) -> None:
    """For an op on its error path: torch's parser error for `key` as the user's call gave the
    arguments (`names`/`values`: the op's parameters, the method form's, in order; those the
    call named by keyword go to the parser by keyword, as call_site tells), else return.
    `self`: the op's Tensor, for an op that is also a function (torch.round(x, ...)): when
    called through its function form's wrapper, it is the function's first argument. `depth`:
    the frames between the op and this call. Between the op and the user's code only the
    wrappers of shadowgrad's functions and methods may stand (an op that shadowgrad's own
    code called failed for its own reasons)."""
    frame = sys._getframe(2 + depth)  # the op's caller
    generic = _generic_wrapper_code()
    function = not method  # a torch.nn.functional function (all its arguments positional)
    while frame is not None and frame.f_code.co_filename.startswith(_PKG):
        code = frame.f_code
        if code.co_name not in _WRAPPER_NAMES:
            # called by shadowgrad's own code (an nn module's forward): a function of
            # torch.nn.functional is called so by position; an op may have failed for its own
            # reasons (its keyword-only arguments cannot be told from the rest)
            if function:
                err = parser_error(key, values, {}, False)
                if err is not None:
                    raise err from None
            return
        # tensor_first's wrapper, or _numpy_compat's generic one of a function form
        if method and (code.co_name == "checked" or code is generic):
            method, names, values = False, ("input", *names), (self, *values)
        frame = frame.f_back
    site = call_site()
    if site is None:  # (which were given, and how, cannot be told: the op's own error)
        return
    given = dict(zip(names, values, strict=True))
    args = values[: site[0] - len(site[1])]
    kwargs = {n: given[n] for n in site[1] if n in given}
    err = parser_error(key, args, kwargs, method)
    if err is not None:
        raise err from None


def reraise_tensor_list(values: Any) -> None:
    """Inside an `except` of a failed call taking Tensors as varargs (broadcast_tensors,
    block_diag, meshgrid, ...): torch's parser error for the first element that is not a Tensor
    (`expected Tensor as element 1 in argument 0, but got str`), else return, to re-raise."""
    from ._tensor import Tensor

    for i, v in enumerate(values):
        if not isinstance(v, Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument 0, but got {type(v).__name__}"
            ) from None


# --- the factories of several overloads: a keyword of the wrong type -------------------------
_FACTORY_TAIL = (
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool "
    "pin_memory = False, bool requires_grad = False"
)
_GEN = "torch.Generator generator, "
_OUT = "Tensor out = None, "
_LIN = ("Tensor start, Tensor end", "Number start, Tensor end", "Tensor start, Number end")
_LIN += ("Number start, Number end",)
FACTORY_SIGS: dict[str, tuple[str, ...]] = {
    "rand": tuple(f"tuple of ints size, *, {g}{_OUT}{_FACTORY_TAIL}" for g in (_GEN, "")),
    "randint": tuple(
        f"{p}, *, {g}{_OUT}{_FACTORY_TAIL}"
        for p in ("int high, tuple of ints size", "int low, int high, tuple of ints size")
        for g in (_GEN, "")
    ),
    "randperm": tuple(f"int n, *, {g}{_OUT}{_FACTORY_TAIL}" for g in (_GEN, "")),
    "arange": (
        f"Number end, *, {_OUT}{_FACTORY_TAIL}",
        f"Number start, Number end, *, {_FACTORY_TAIL}",
        f"Number start, Number end, Number step = 1, *, {_OUT}{_FACTORY_TAIL}",
    ),
    "eye": tuple(f"{p}, *, {_OUT}{_FACTORY_TAIL}" for p in ("int n", "int n, int m")),
    "linspace": tuple(f"{p}, int steps, *, {_OUT}{_FACTORY_TAIL}" for p in _LIN),
    "logspace": tuple(f"{p}, int steps, float base = 10.0, *, {_OUT}{_FACTORY_TAIL}" for p in _LIN),
    "rand_like": tuple(
        f"Tensor input, *, {g}torch.memory_format memory_format = None, {_FACTORY_TAIL}"
        for g in (_GEN, "")
    ),
}
FACTORY_SIGS["randn"] = FACTORY_SIGS["rand"]
FACTORY_SIGS["randn_like"] = FACTORY_SIGS["rand_like"]


def _factory_keyword_ok(name: str, v: Any) -> bool:
    from ._tensor import device

    if v is None:
        return True
    if name == "dtype":
        return isinstance(v, _dtype_class) or v in (float, int, bool, complex)
    if name == "device":
        return isinstance(v, (str, device)) or _is_index(v)
    if name in ("pin_memory", "requires_grad"):
        return isinstance(v, bool)
    return True


def factory_options(
    fn: str, positional: tuple[Any, ...], dtype: Any, device: Any, pin_memory: Any, rg: Any
) -> Any:
    """A factory's dtype=, device=, pin_memory= and requires_grad= when one is not of the usual
    type (the factory tests that inline, a rare branch): torch's listing of the overloads or
    its pin_memory error, else the dtype read as torch reads it (a Python type)."""
    from . import _dtype as D
    from ._creation import dtype_arg, pin_memory_arg

    keywords = {"dtype": dtype, "device": device, "pin_memory": pin_memory, "requires_grad": rg}
    factory_keywords(fn, positional, keywords)
    pin_memory_arg(fn, pin_memory)
    if dtype is not None and dtype.__class__ is not D.dtype:  # float, int, ...
        dtype = dtype_arg(fn, dtype)
    return dtype


def factory_keywords(fn: str, positional: tuple[Any, ...], keywords: dict[str, Any]) -> None:
    """For a factory of several overloads (rand, arange, eye, linspace, ...) whose dtype=,
    device=, pin_memory= or requires_grad= may be of the wrong type (a rare branch: the
    factory asks only when one is not of the usual type): torch's listing of the overloads,
    else return. `positional`: the values of the parameters that can be given positionally
    (those the call gave are listed); `keywords`: the keyword-only ones and their values."""
    if all(_factory_keyword_ok(k, v) for k, v in keywords.items()):
        return
    site = call_site()
    if site is None:  # (a call through **kwargs: the keywords not at their defaults)
        names = tuple(k for k, v in keywords.items() if v is not None and v is not False)
    else:
        names = site[1]
    args = positional[: site[0] - len(site[1])] if site else positional
    # (the keywords as torch's unordered_map gives them back: for two, the reverse of the call's)
    kws = [f"{k}={_got(keywords[k])}" for k in reversed(names) if k in keywords]
    pos = [_got(a) for a in args]
    got = ", ".join(pos + kws) if pos else "".join(f"{k}, " for k in kws)
    listing = "".join(f" * ({s})\n" for s in FACTORY_SIGS[fn])
    raise TypeError(
        f"{fn}() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n{listing}"
    )


def reraise_op_frame(up: int = 2) -> None:
    """On an op's error path (the op's frame `up` frames above this one: 1 when the op calls
    this, 2 from a helper it calls): torch's parser error for the op (its function's name, a
    PARSER key) as the user's call gave its arguments, read from the op's frame by its
    parameters' names, else return."""
    frame = sys._getframe(up)  # the op's
    code = frame.f_code
    if code.co_name not in PARSER or not code.co_argcount:
        return
    loc = frame.f_locals
    names = code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]
    values = tuple(loc.get(n) for n in names)
    reraise_as_called(code.co_name, names, values, True, loc.get(code.co_varnames[0]), up)
