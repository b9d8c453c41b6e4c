"""numpy's keyword names, as torch's argument parser accepts them.

torch's parser (python_arg_parser.cpp, `numpy_compatibility_arg_names`) lets every native binding,
`torch.<fn>(...)` and `Tensor.<method>(...)` alike, take numpy's name for four parameters:
`axis` for `dim`, `keepdims` for `keepdim`, `x`, `a` or `x1` for `input`, and `x2` for `other`
(`x.sum(axis=0)`, `torch.mean(x, axis=1, keepdims=True)`, `torch.add(x1=a, x2=b)`). The functions
torch writes in Python (most of torch.nn.functional, `Tensor.split`, `torch.norm`, ...) do not.

shadowgrad's functions are Python functions with torch's parameter names. `install` wraps, once
at import, each public function and Tensor method that torch binds natively and whose parameters
include one of those names; the wrapper translates the keywords only when an alias is among them
(one truthiness test of the keywords otherwise). torch reads an alias only for a parameter not
given already (by position or by its own name); an alias left unread is an unexpected keyword.
"""

from __future__ import annotations

import inspect
import types
from typing import Any

# numpy's names for each parameter, in the order torch tries them
_NUMPY_NAMES = {
    "dim": ("axis",),
    "keepdim": ("keepdims",),
    "input": ("x", "a", "x1"),
    "other": ("x2",),
}
_ALIAS_OF = {a: p for p, names in _NUMPY_NAMES.items() for a in names}
_ALIASES = frozenset(_ALIAS_OF)

# Functions torch writes in Python (no aliases), among those whose parameters would take one.
# Read from torch 2.13: the ones not a builtin function or method descriptor.
_PYTHON_METHODS = frozenset(
    "istft lstsq norm solve split stft unflatten unique unique_consecutive".split()  # noqa: SIM905
)
_PYTHON_FUNCTIONS = frozenset(
    "lstsq matrix_rank norm solve split stft symeig unique unique_consecutive".split()  # noqa: SIM905
)
# torch.nn.functional is mostly Python: the ones torch binds natively (torch._C builtins)
_NATIVE_NN_FUNCTIONAL = frozenset(
    """
    adaptive_avg_pool1d avg_pool1d avg_pool2d avg_pool3d celu_ channel_shuffle conv1d conv2d
    conv3d conv_tbc conv_transpose1d conv_transpose2d conv_transpose3d cosine_similarity elu_
    gelu hardshrink hardtanh_ leaky_relu_ linear logsigmoid native_channel_shuffle
    pairwise_distance pdist pixel_shuffle pixel_unshuffle prelu relu_ rrelu_ selu_ softplus
    softshrink threshold_
    """.split()  # noqa: SIM905
)


class _Param:
    """A parameter as inspect.Parameter describes it (name, kind, default), read straight from a
    function's code object: inspect.signature's cost, over the ~1,200 functions wrapped at
    import, was most of this module's share of `import shadowgrad`."""

    __slots__ = ("default", "kind", "name")
    POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = inspect.Parameter.VAR_POSITIONAL
    KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY
    VAR_KEYWORD = inspect.Parameter.VAR_KEYWORD
    empty = inspect.Parameter.empty

    def __init__(self, name: str, kind: Any, default: Any) -> None:
        self.name = name
        self.kind = kind
        self.default = default


_VARARGS = inspect.CO_VARARGS
_VARKEYWORDS = inspect.CO_VARKEYWORDS


def _parameters(fn: Any, follow_wrapped: bool = True) -> list[Any]:
    """inspect.signature(fn, follow_wrapped=...).parameters' values, for a plain function read
    from its code (what inspect.signature reads too); anything else through inspect."""
    f = fn
    if follow_wrapped:
        while hasattr(f, "__wrapped__") and not hasattr(f, "__signature__"):
            f = f.__wrapped__
    if type(f) is not types.FunctionType or hasattr(f, "__signature__"):
        return list(inspect.signature(fn, follow_wrapped=follow_wrapped).parameters.values())
    co = f.__code__
    npos, nkw, nonly = co.co_argcount, co.co_kwonlyargcount, co.co_posonlyargcount
    names = co.co_varnames
    defaults = f.__defaults__ or ()
    kwdefaults = f.__kwdefaults__ or {}
    empty = _Param.empty
    first_default = npos - len(defaults)
    out = [
        _Param(
            names[i],
            _Param.POSITIONAL_ONLY if i < nonly else _Param.POSITIONAL_OR_KEYWORD,
            defaults[i - first_default] if i >= first_default else empty,
        )
        for i in range(npos)
    ]
    k = npos + nkw
    if co.co_flags & _VARARGS:
        out.append(_Param(names[k], _Param.VAR_POSITIONAL, empty))
        k += 1
    out += [
        _Param(n, _Param.KEYWORD_ONLY, kwdefaults.get(n, empty)) for n in names[npos : npos + nkw]
    ]
    if co.co_flags & _VARKEYWORDS:
        out.append(_Param(names[k], _Param.VAR_KEYWORD, empty))
    return out


def _argument_names(fn: Any) -> Any:
    """The names of a plain function's parameters (those of the function it wraps, as
    inspect.signature reads them), from its code; all numpy's names where it is not plain (its
    signature is read then)."""
    f = fn
    while hasattr(f, "__wrapped__") and not hasattr(f, "__signature__"):
        f = f.__wrapped__
    if type(f) is not types.FunctionType or hasattr(f, "__signature__"):
        return _NUMPY_NAMES  # not known here: assume one
    co = f.__code__
    return co.co_varnames[: co.co_argcount + co.co_kwonlyargcount]


def _plan(fn: Any, method: bool) -> tuple[dict[str, int], dict[str, int] | None] | None:
    """(fn's aliased parameters, all its named parameters), each name -> its position (-1:
    keyword-only); the second None where fn takes **kwargs or hides its parameters. None if fn
    has no aliased parameter."""
    plan: dict[str, int] = {}
    names: dict[str, int] | None = {}
    first = getattr(fn, "_first_param", None)  # _signatures.tensor_first's, over a (*args) op
    if first in _NUMPY_NAMES and not method:
        plan[first] = 0
    elif _NUMPY_NAMES.keys().isdisjoint(_argument_names(fn)):
        return None  # (most functions: no parameter with a numpy name)
    try:
        params = _parameters(fn)
    except (TypeError, ValueError):
        return (plan, None) if plan else None
    pos = 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            pos = -1 << 20  # what follows is keyword-only
            if first is not None:
                names = None
            continue
        if p.kind is p.VAR_KEYWORD:
            names = None
            break
        i = pos if pos >= 0 and p.kind is p.POSITIONAL_OR_KEYWORD else -1
        if p.kind is not p.POSITIONAL_ONLY and not (method and pos == 0):
            # (a method's first parameter is torch's bound `self`: it has no name)
            if names is not None:
                names[p.name] = i
            if p.name in _NUMPY_NAMES:
                plan[p.name] = i
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            pos += 1
    outer = fn
    while names is not None and hasattr(outer, "__wrapped__"):
        # the keywords a wrapper takes itself (_with_out's out=)
        for p in _parameters(outer, follow_wrapped=False):
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in names:
                names[p.name] = -1
        outer = outer.__wrapped__
    return (plan, names) if plan else None


def _translate(
    reported: str,
    plan: dict[str, int],
    names: dict[str, int] | None,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> dict[str, Any]:
    """kwargs with the aliases of plan's parameters renamed, as torch's parser reads them: an
    alias only for a parameter not given already (by position or by its own name). A keyword
    left unread fails as torch's does (extra_kwargs): at the first keyword, in the caller's order,
    that is no parameter's own name (an alias, read or not, included) or names one given by
    position."""
    out: dict[str, Any] = {}
    bad = False
    for k, v in kwargs.items():
        p = _ALIAS_OF.get(k)
        if p is None or p not in plan:
            out[k] = v
            bad = bad or (names is not None and k not in names)
            continue
        i = plan[p]
        if p in kwargs or p in out or 0 <= i < len(args):
            bad = True  # given already: torch leaves the alias unread
            continue
        out[p] = v
    if bad:
        for k in kwargs:
            if names is None:
                if k in _ALIASES:
                    break
                continue
            i = names.get(k)
            if i is None:
                break
            if 0 <= i < len(args):
                raise TypeError(f"{reported}() got multiple values for argument '{k}'")
        raise TypeError(f"{reported}() got an unexpected keyword argument '{k}'")
    return out


# Note [Wrapper frames and warnings]: an op that warns names its caller's line with a fixed
# stacklevel; a wrapper frame in between would move that to this file. The wrappers' code is
# compiled under a file name that Python's warnings module skips when it counts the levels (as
# it skips importlib's bootstrap frames: the name holds "importlib" and "_bootstrap"), so a
# warning still points at the user's line. The name starts with this file's path: autograd's
# explain counts the frames as shadowgrad's own.
_FILENAME = __file__ + " (numpy aliases; skipped by warnings as importlib._bootstrap frames are)"


def skipped_by_warnings(fn: Any) -> Any:
    """fn, its code under `_FILENAME`: a wrapper that warnings skip as they count an op's fixed
    stacklevel (Note [Wrapper frames and warnings]); `_signatures.tensor_first`'s and
    `ops._with_out`'s."""
    fn.__code__ = fn.__code__.replace(co_filename=_FILENAME)
    return fn


_CODE: dict[str, Any] = {}  # each wrapper source compiled once (many wrappers share one)


def _compile(src: str, ns: dict[str, Any]) -> Any:
    code = _CODE.get(src)
    if code is None:
        code = _CODE[src] = compile(src, _FILENAME, "exec")
    exec(code, ns)
    return ns["aliased"]


_GENERIC = """
def aliased(*args, **kwargs):
    if kwargs and not _ALIASES.isdisjoint(kwargs):
        kwargs = _translate(reported, aliased_params, names, args, kwargs)
    try:
        return fn(*args, **kwargs)
    except Exception:  # torch's argument parser refuses first: its error, where it has one
        if reported in _PARSER:
            _reraise(reported, args[1:], kwargs, method, () if method else args[:1])
        raise
"""


def _wrap(
    fn: Any, reported: str, plan: tuple[dict[str, int], dict[str, int] | None], method: bool
) -> Any:
    from . import _signatures

    aliased_params, names = plan
    ns = {
        "fn": fn,
        "reported": reported,
        "aliased_params": aliased_params,
        "names": names,
        "_ALIASES": _ALIASES,
        "_translate": _translate,
        "method": method,
        "_PARSER": _signatures.PARSER,
        "_reraise": _signatures.reraise,
    }
    aliased = _compile(_GENERIC, ns)
    aliased.__name__ = getattr(fn, "__name__", reported)
    aliased.__qualname__ = getattr(fn, "__qualname__", reported)
    aliased.__doc__ = fn.__doc__
    aliased.__module__ = getattr(fn, "__module__", __name__)
    aliased.__wrapped__ = fn  # type: ignore[attr-defined]
    aliased._numpy_aliases = True  # type: ignore[attr-defined]
    return aliased


_S: Any = object()  # not given


_SLOW = """
def aliased(fn, reported, values, aliases):
    # an exact wrapper's call with an alias given (or a required parameter left out, or out=)
    if values["out"] is not _S:
        given = [a for a, v in aliases.items() if v is not _S]
        if given:  # Note [A method's out=]
            raise TypeError(f"{reported}() got an unexpected keyword argument '{given[0]}'")
    for a, v in aliases.items():
        if v is _S:
            continue
        p = _ALIAS_OF[a]
        if values[p] is not _S:
            # given already: torch leaves the alias unread, and names the first keyword that
            # is no parameter's name: an alias, taken here in numpy's order
            first = next(k for k, v in aliases.items() if v is not _S)
            raise TypeError(f"{reported}() got an unexpected keyword argument '{first}'")
        values[p] = v
    first = next(iter(values))
    return fn(values.pop(first), **{k: v for k, v in values.items() if v is not _S})
"""
_slow = _compile(_SLOW, {"_S": _S, "_ALIAS_OF": _ALIAS_OF})


def _exact(fn: Any, reported: str, plan: dict[str, int]) -> Any:
    """A wrapper with fn's own parameters plus the aliases (None where fn's are not plain):
    a call without an alias costs one comparison per alias and the call of fn, without the
    packing of *args and **kwargs."""
    inner = fn
    if hasattr(fn, "__wrapped__"):
        # a method that only passes its arguments on to its op (make_inplace's): the op's own
        if not getattr(fn, "_forwards", False) or hasattr(fn.__wrapped__, "__wrapped__"):
            return None
        inner = fn.__wrapped__
    params = _parameters(inner, follow_wrapped=False)
    aliases = [a for p in plan for a in _NUMPY_NAMES[p]]
    if any(
        p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY)
        or p.name.startswith("_")
        or p.name in _ALIASES
        for p in params
    ):
        return None
    ns: dict[str, Any] = {"_fn": fn, "_S": _S, "_slow": _slow, "_reported": reported}
    head: list[str] = []
    star = False
    defaulted = False
    needed: list[str] = []  # required, but given a default here: present, or the slow path
    fills: list[str] = []
    call: list[str] = []
    call_kw: list[str] = []  # keyword-only, passed on (each) only when not at its default
    kw_default: list[tuple[str, str]] = []
    for i, p in enumerate(params):
        n = p.name
        if p.kind is p.KEYWORD_ONLY and not star:
            head.append("*")
            star = True
        if n == "out" and p.kind is p.KEYWORD_ONLY:
            continue  # Note [A method's out=]
        if p.default is not p.empty:
            ns[f"_d{i}"] = p.default
        if n in plan or (defaulted and p.kind is p.POSITIONAL_OR_KEYWORD):
            head.append(f"{n}=_S")
            defaulted = defaulted or p.kind is p.POSITIONAL_OR_KEYWORD
            if p.default is p.empty:
                needed.append(n)
            else:
                fills.append(f"        if {n} is _S:\n            {n} = _d{i}\n")
        elif p.default is not p.empty:
            head.append(f"{n}=_d{i}")
            defaulted = defaulted or p.kind is p.POSITIONAL_OR_KEYWORD
        else:
            head.append(n)
        if p.kind is p.POSITIONAL_OR_KEYWORD:
            call.append(n)
        elif n not in plan and p.default is not p.empty:
            kw_default.append((n, f"{n} is _d{i}"))
            call_kw.append(f"        if {n} is not _d{i}:\n            kw[{n!r}] = {n}\n")
        else:
            call.append(f"{n}={n}")
    if not star:
        head.append("*")
    # Note [A method's out=]: torch's methods take no out= (numpy's np.sum(t) calls
    # t.sum(axis=None, dtype=None, out=None), which torch refuses at 'axis'); shadowgrad's take
    # their function's. Every wrapper takes out= and leaves it to the slow path.
    head += [f"{a}=_S" for a in aliases] + ["out=_S"]
    cond = " and ".join(
        [f"{a} is _S" for a in aliases] + [f"{n} is not _S" for n in needed] + ["out is _S"]
    )
    values = ", ".join(
        [f"{p.name!r}: {p.name}" for p in params if p.name != "out"] + ["'out': out"]
    )
    given = ", ".join(f"{a!r}: {a}" for a in aliases)
    fast = f"        return _fn({', '.join(call)})\n"
    if kw_default:
        # fn sees exactly the keywords given (its fast paths look): none, one, or several
        branches = [(" and ".join(t for _, t in kw_default), call)]
        if len(kw_default) > 1:
            for n, _ in kw_default:
                others = " and ".join(t for m, t in kw_default if m != n)
                branches.append((others, [*call, f"{n}={n}"]))
        fast = "".join(
            f"        if {cond_}:\n            return _fn({', '.join(args_)})\n"
            for cond_, args_ in branches
        )
        if len(kw_default) == 1:
            n = kw_default[0][0]
            fast += f"        return _fn({', '.join([*call, f'{n}={n}'])})\n"
        else:
            fast += f"        kw = {{}}\n{''.join(call_kw)}"
            fast += f"        return _fn({', '.join([*call, '**kw'])})\n"
    src = (
        f"def aliased({', '.join(head)}):\n"
        f"    if {cond}:\n"
        f"{''.join(fills)}{fast}"
        f"    return _slow(_fn, _reported, {{{values}}}, {{{given}}})\n"
    )
    return _compile(src, ns)  # built above from fn's own parameter names


def _wrapped(fn: Any, reported: str, method: bool, shared: bool = False) -> Any:
    """fn taking the aliases; `shared`: fn is also the function of a namespace torch writes in
    Python (so it cannot take them in place)."""
    if not inspect.isfunction(fn) or getattr(fn, "_numpy_aliases", False):
        return fn
    plan = _plan(fn, method)
    if plan is None:
        return fn
    hook = getattr(fn, "_alias_hook", None)  # _signatures.tensor_first's: translate in there
    if hook is not None and not method and not shared and hook[0] is None:
        aliased_params, names = plan
        hook[0] = lambda args, kwargs: _translate(reported, aliased_params, names, args, kwargs)
        fn._numpy_aliases = True
        return fn
    new = _exact(fn, reported, plan[0]) if method else None
    if new is None:
        return _wrap(fn, reported, plan, method)
    new.__name__ = fn.__name__
    new.__qualname__ = fn.__qualname__
    new.__doc__ = fn.__doc__
    new.__module__ = fn.__module__
    new.__wrapped__ = fn
    new._numpy_aliases = True
    return new


def install_methods(cls: type) -> None:
    """Wrap the Tensor methods torch binds natively. Those torch writes in Python name
    themselves `Tensor.<name>` in Python's own errors (`Tensor.split() got an unexpected keyword
    argument 'axis'`): they become copies of their function under that qualified name."""
    for name, fn in list(vars(cls).items()):
        if name.startswith("__"):
            continue
        if name in _PYTHON_METHODS:
            if inspect.isfunction(fn) and fn.__qualname__ != f"Tensor.{name}":
                setattr(cls, name, _renamed(fn, f"Tensor.{name}"))
            continue
        new = _wrapped(fn, name, True)
        if new is not fn:
            setattr(cls, name, new)


def _renamed(fn: Any, qualname: str) -> Any:
    """A copy of fn (same code, defaults, closure and attributes) under another qualname."""
    new = types.FunctionType(
        fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
    )
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__doc__ = fn.__doc__
    new.__module__ = fn.__module__
    new.__annotations__ = fn.__annotations__
    new.__qualname__ = qualname
    return new


def install_functions(
    namespace: dict[str, Any],
    prefix: str,
    names: Any = None,
    reported: dict[str, str] | None = None,
    nn_functional: Any = None,
) -> None:
    """Wrap a namespace's functions in place (torch: prefix "", torch.special: "special_", ...):
    those in `names` when given, else all but torch's Python ones. Where `nn_functional` holds
    the same function object under the same name, and torch binds that one natively there too,
    it gets the same wrapper (one object, as in torch)."""
    reported = reported or {}
    for name, fn in list(namespace.items()):
        if name.startswith("_") or (names is not None and name not in names):
            continue
        if names is None and prefix == "" and name in _PYTHON_FUNCTIONS:
            continue
        shared = getattr(nn_functional, name, None) is fn and name not in _NATIVE_NN_FUNCTIONAL
        new = _wrapped(fn, reported.get(name, prefix + name), False, shared)
        if new is not fn:
            namespace[name] = new
            if name in _NATIVE_NN_FUNCTIONAL and getattr(nn_functional, name, None) is fn:
                setattr(nn_functional, name, new)
