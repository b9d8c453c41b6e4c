"""Wrong calls found by a third pass of the argument-parser scan (see
compat/test_argument_scan_programs.py and test_argument_scan2_programs.py): an int list whose
first element is a bool (`x.sum((True,))`: torch's parser reads a list by its first element),
an explicit `dim=None` where torch's only overload with a dim takes an int (max, min, median,
nanmedian), count_nonzero/std_mean/var_mean's listings, the function forms' missing arguments,
and torch.nn.functional's Number and int parameters (softshrink, hardtanh_, celu, glu, rrelu,
threshold) with the names torch's own functions carry. Valid calls next to them are compared
too (values, grad_fn, gradients). The programs register into test_realistic_programs_3's set
and run through its harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


# --- an int list whose first element is a bool ---------------------------------------------


@program()
def prog_as3_sum_mean_dim_tuple_bool_first(T: Any) -> Any:
    x = _x(T, 2, 3)
    y = x.sum((0, True)) + x.mean([1, False])  # past the first element a bool is taken
    y.backward()
    return (
        raises(lambda: x.sum((True,))),
        raises(lambda: x.mean([False, 1])),
        raises(lambda: T.sum(x, (True,))),
        raises(lambda: x.sum(dim=(True,))),
        raises(lambda: x.sum([True, 0], True)),
        raises(lambda: x.mean((True,))),
        raises(lambda: T.mean(x, dim=[True])),
        raises(lambda: x.prod((True,))),
        y,
        y.grad_fn,
        x.grad,
    )


@program()
def prog_as3_reductions_dim_tuple_bool_first(T: Any) -> Any:
    x = _x(T, 2, 3, rg=False)
    return {
        "nansum": (raises(lambda: x.nansum((True,))), raises(lambda: x.nansum(dim=(True,)))),
        "nanmean": (raises(lambda: x.nanmean((True,))), raises(lambda: T.nanmean(x, (True,)))),
        "amax": (raises(lambda: x.amax((True,))), raises(lambda: x.amax(dim=(True,)))),
        "amin": (raises(lambda: x.amin((True,))), raises(lambda: T.amin(x, (True,)))),
        "logsumexp": (raises(lambda: x.logsumexp((True,))), raises(lambda: x.logsumexp([True]))),
        "std": (raises(lambda: x.std((True,))), raises(lambda: T.std(x, (True,)))),
        "var": (raises(lambda: x.var(dim=(True,))), raises(lambda: T.var(x, (True,)))),
        "all": (raises(lambda: x.all((True,))), raises(lambda: T.any(x, dim=(True,)))),
        "norm": (raises(lambda: x.norm(dim=(True,))), raises(lambda: x.norm(2, (True,)))),
        "valid": (x.amax((0, True)), x.logsumexp([0, True]), x.nansum((1,)), x.std((1, False))),
        "std_bool_first": raises(lambda: x.std((False, 1))),
    }


@program()
def prog_as3_count_nonzero_listing(T: Any) -> Any:
    x = T.tensor([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]])
    return (
        raises(lambda: x.count_nonzero((True,))),
        raises(lambda: T.count_nonzero(x, (True,))),
        raises(lambda: x.count_nonzero(dim=(True,))),
        raises(lambda: x.count_nonzero("a")),
        raises(lambda: x.count_nonzero(1.5)),
        raises(lambda: T.count_nonzero(x, dim="a")),
        raises(lambda: x.count_nonzero(foo=1)),
        x.count_nonzero(),
        x.count_nonzero(0),
        x.count_nonzero((0, 1)),
        T.count_nonzero(x, dim=[1]),
        x.count_nonzero(None),
    )


@program()
def prog_as3_std_mean_var_mean_listing(T: Any) -> Any:
    x = _x(T, 3, 4)
    s, m = T.std_mean(x, 1, keepdim=True)
    v, m2 = T.var_mean(x, (0, 1), correction=0)
    (s.sum() + m.sum() + v + m2).backward()
    return (
        raises(lambda: T.std_mean(x, (True,))),
        raises(lambda: T.var_mean(x, (True,))),
        raises(lambda: T.std_mean(x, "a")),
        raises(lambda: T.var_mean(x, 0, correction="a")),
        raises(lambda: T.std_mean(x, 0, keepdim=1)),
        raises(lambda: T.var_mean(x, 1.5)),
        raises(lambda: T.std_mean(x, foo=1)),
        s,
        m,
        v,
        m2,
        s.grad_fn,
        v.grad_fn,
        x.grad,
        T.std_mean(x.detach(), None),
        T.var_mean(x.detach(), dim=None, keepdim=True),
    )


# --- an explicit dim=None ------------------------------------------------------------------


@program()
def prog_as3_max_min_explicit_dim_none(T: Any) -> Any:
    x = _x(T, 2, 3)
    v, i = x.max(1)
    w = x.min()
    (v.sum() + w).backward()
    return (
        raises(lambda: x.max(dim=None)),
        raises(lambda: T.max(x, dim=None)),
        raises(lambda: x.max(None)),
        raises(lambda: x.max(None, True)),
        raises(lambda: x.max(dim=None, keepdim=True)),
        raises(lambda: x.min(dim=None)),
        raises(lambda: T.min(x, None)),
        raises(lambda: x.min(None, keepdim=True)),
        v,
        i,
        w,
        x.grad,
        x.max(other=x.detach() * 0),
        T.max(x.detach(), 0, True),
    )


@program()
def prog_as3_median_nanmedian_explicit_dim_none(T: Any) -> Any:
    x = T.tensor([[1.0, 5.0, 3.0], [4.0, float("nan"), 6.0]], requires_grad=True)
    m = x.nanmedian()
    v, i = x.median(1)
    (m + v.nan_to_num().sum()).backward()
    return (
        raises(lambda: x.median(dim=None)),
        raises(lambda: x.median(None)),
        raises(lambda: T.median(x, None)),
        raises(lambda: x.median(dim=None, keepdim=True)),
        raises(lambda: x.nanmedian(dim=None)),
        raises(lambda: T.nanmedian(x, dim=None)),
        raises(lambda: x.nanmedian(None, True)),
        raises(lambda: x.median(keepdim=True)),
        m,
        v,
        i,
        m.grad_fn,
        x.grad,
    )


@program()
def prog_as3_dim_none_where_torch_takes_it(T: Any) -> Any:
    x = _x(T, 2, 3, rg=False)
    return (
        x.std(dim=None),
        x.var(None, keepdim=True),
        x.argmax(dim=None),
        x.argmin(None, True),
        x.sum(dim=None),
        x.mean(None),
        x.amax(dim=()),
        x.nansum(dim=None),
        x.norm(dim=None),
        x.aminmax(dim=None),
        raises(lambda: x.mode(dim=None)),
        raises(lambda: x.kthvalue(1, dim=None)),
        raises(lambda: x.logsumexp(dim=None)),
        raises(lambda: x.cumsum(dim=None)),
        raises(lambda: x.softmax(dim=None)),
        raises(lambda: x.prod(dim=None)),
    )


# --- the function forms' missing arguments -------------------------------------------------


@program()
def prog_as3_function_forms_missing_argument(T: Any) -> Any:
    x = _x(T, 2, 3, rg=False)
    i = T.tensor([0, 1])
    calls = {
        "gather": lambda: T.gather(x, 0),
        "index_select": lambda: T.index_select(x, 0),
        "take": lambda: T.take(x),
        "kron": lambda: T.kron(x),
        "matmul": lambda: T.matmul(x),
        "cross": lambda: T.cross(x),
        "dist": lambda: T.dist(x),
        "as_strided": lambda: T.as_strided(x, (2,)),
        "binomial": lambda: T.binomial(x),
        "masked_select": lambda: T.masked_select(x),
        "take_along_dim": lambda: T.take_along_dim(x),
        "select": lambda: T.select(x, 0),
        "index_add": lambda: T.index_add(x, 0, i),
    }
    out = {k: raises(f) for k, f in calls.items()}
    out["valid"] = (T.gather(x, 0, i[None]), T.index_select(x, 1, i), T.take(x, i))
    return out


# --- torch.nn.functional's Number and int parameters ---------------------------------------


@program()
def prog_as3_softshrink_lambd_not_a_number(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    y = F.softshrink(x, 0.25) + F.softshrink(x, T.tensor(0.5))
    y.sum().backward()
    return (
        raises(lambda: F.softshrink(x, "a")),
        raises(lambda: F.softshrink(x, lambd=[0.5])),
        raises(lambda: F.softshrink(x, None)),
        raises(lambda: F.softshrink(x, -1.0)),
        raises(lambda: F.hardshrink(x, "a")),
        y,
        y.grad_fn,
        x.grad,
    )


@program()
def prog_as3_hardtanh_inplace_limits(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, rg=False)
    y = F.hardtanh_(x.clone(), -0.5, 0.5)
    z = F.hardtanh_(x.clone(), max_val=2)
    return (
        raises(lambda: F.hardtanh_(x.clone(), "a")),
        raises(lambda: F.hardtanh_(x.clone(), max_val=[1.0])),
        raises(lambda: F.hardtanh_(x.clone(), -1.0, None)),
        raises(lambda: F.hardtanh(x, "a")),
        raises(lambda: F.hardtanh_(x.clone(), 1.0, -1.0)),
        y,
        z,
    )


@program()
def prog_as3_celu_glu_alpha_and_dim(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 4)
    y = F.celu(x, 0.5) + F.glu(x, 1).repeat(1, 2)
    y.sum().backward()
    return (
        raises(lambda: F.celu(x, [1.0])),
        raises(lambda: F.celu(x, "a")),
        raises(lambda: F.celu(x, alpha=None)),
        raises(lambda: F.glu(x, "a")),
        raises(lambda: F.glu(x, 1.0)),
        raises(lambda: F.glu(x, dim=None)),
        y,
        y.grad_fn,
        x.grad,
        F.celu(x.detach(), T.tensor(2.0)),
    )


@program()
def prog_as3_rrelu_and_threshold_numbers(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    y = F.rrelu(x, 0.1, 0.3) + F.threshold(x, 0.1, -1.0)
    y.sum().backward()
    return (
        raises(lambda: F.rrelu(x, "a")),
        raises(lambda: F.rrelu(x, 0.1, [0.3])),
        raises(lambda: F.rrelu(x, upper=None)),
        raises(lambda: F.threshold(x, "a", 1.0)),
        raises(lambda: F.threshold(x, 0.5, None)),
        raises(lambda: F.threshold(x, 0.5)),
        y,
        y.grad_fn,
        x.grad,
    )


@program()
def prog_as3_functional_names_in_binding_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, rg=False)
    return (
        F.threshold.__name__,
        F.logsigmoid.__name__,
        raises(lambda: F.logsigmoid(x, 1)),
        raises(lambda: F.threshold(x)),
        F.logsigmoid(x),
        F.threshold(x, 0.0, 2.0),
    )


@program()
def prog_as3_conv_int_parameters(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 5, 5)
    w = _x(T, 3, 2, 2, 2, seed=1)
    y = F.conv2d(x, w, stride=(2, 1), padding=[1], dilation=1, groups=1)
    y.sum().backward()
    return {
        "stride_str_kw": raises(lambda: F.conv2d(x, w, stride="a")),
        "stride_str_pos": raises(lambda: F.conv2d(x, w, None, "a")),
        "stride_float": raises(lambda: F.conv2d(x, w, stride=1.5)),
        "stride_list_float": raises(lambda: F.conv2d(x, w, stride=[1.5, 1])),
        "stride_list_str_second": raises(lambda: F.conv2d(x, w, stride=[1, "a"])),
        "stride_bool": raises(lambda: F.conv2d(x, w, stride=True)),
        "groups_float": raises(lambda: F.conv2d(x, w, groups=1.0)),
        "groups_float_pos": raises(lambda: F.conv2d(x, w, None, 1, 0, 1, 1.0)),
        "groups_none": raises(lambda: F.conv2d(x, w, groups=None)),
        "dilation_str": raises(lambda: F.conv2d(x, w, dilation="a")),
        "padding_float": raises(lambda: F.conv2d(x, w, padding=1.5)),
        "padding_bad_str": raises(lambda: F.conv2d(x, w, padding="full")),
        "values": (y, y.grad_fn, x.grad),
        "tensor_stride": F.conv2d(x.detach(), w, stride=(T.tensor(2), 1)).shape,
    }


@program()
def prog_as3_conv1d_conv3d_int_parameters(T: Any) -> Any:
    F = T.nn.functional
    x1 = _x(T, 1, 2, 6, rg=False)
    w1 = _x(T, 3, 2, 2, seed=1, rg=False)
    x3 = _x(T, 1, 2, 3, 3, 3, seed=2, rg=False)
    w3 = _x(T, 2, 1, 2, 2, 2, seed=3, rg=False)
    return (
        raises(lambda: F.conv1d(x1, w1, stride="a")),
        raises(lambda: F.conv1d(x1, w1, padding=(1.0,))),
        raises(lambda: F.conv1d(x1, w1, None, 1, 0, 1.5)),
        raises(lambda: F.conv3d(x3, w3, groups=2.0)),
        raises(lambda: F.conv3d(x3, w3, stride=[1, 1, "a"])),
        raises(lambda: F.conv_transpose2d(x3[0], w3[:, :, 0], stride="a")),
        F.conv1d(x1, w1, stride=2, padding=1),
        F.conv3d(x3, w3, groups=2, padding=(0, 1, 0)).sum(),
        T.nn.Conv1d(2, 3, 2)(x1).shape,
    )


@program()
def prog_as3_cross_entropy_label_smoothing_and_ignore_index(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    t = T.tensor([0, 3, 1])
    y = F.cross_entropy(x, t, label_smoothing=0.1) + F.cross_entropy(x, t, ignore_index=3)
    y.backward()
    return (
        raises(lambda: F.cross_entropy(x, t, label_smoothing="a")),
        raises(lambda: F.cross_entropy(x, t, label_smoothing=[0.1])),
        raises(lambda: F.cross_entropy(x, t, weight=T.ones(4), ignore_index="a")),
        raises(lambda: F.cross_entropy(x, t, ignore_index=1.5, label_smoothing=0.1)),
        raises(lambda: F.cross_entropy(x, t, label_smoothing=1.5)),
        F.cross_entropy(x, t, label_smoothing=1),
        y,
        y.grad_fn,
        x.grad,
    )


@program()
def prog_as3_instance_norm_momentum_and_eps(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, 4)
    y = F.instance_norm(x, eps=1)
    y.pow(2).sum().backward()
    return (
        raises(lambda: F.instance_norm(x, eps=[1.0])),
        raises(lambda: F.instance_norm(x, eps="a")),
        raises(lambda: F.instance_norm(x, momentum="a")),
        raises(lambda: F.instance_norm(x, momentum=None)),
        raises(lambda: F.instance_norm(x, momentum=[0.1])),
        y,
        y.grad_fn,
        x.grad,
    )


@program()
def prog_as3_unfold_fold_int_pairs(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 4, 5)
    cols = F.unfold(x, (2, 3), padding=1)
    back = F.fold(cols, (4, 5), (2, 3), padding=1)
    back.sum().backward()
    c = cols.detach()
    return (
        raises(lambda: F.unfold(x, "a")),
        raises(lambda: F.unfold(x, 2, "a")),
        raises(lambda: F.unfold(x, (2, "a"))),
        raises(lambda: F.unfold(x, 2.5)),
        raises(lambda: F.unfold(x, 2, stride=[1.5])),
        raises(lambda: F.unfold(x, 2, padding=None)),
        raises(lambda: F.unfold(x, True)),
        raises(lambda: F.fold(c, (4, 5), "a")),
        raises(lambda: F.fold(c, 4.0, 2)),
        raises(lambda: F.fold(c, (4, 5), (2, 3), stride=None)),
        raises(lambda: F.unfold(x, (2, 2, 2))),
        cols,
        back,
        back.grad_fn,
        x.grad,
    )


@program()
def prog_as3_size_methods_called_without_size(T: Any) -> Any:
    x = _x(T, 2, 3)
    one = _x(T, 1, seed=1)
    y = x.sum_to_size(1, 3) + x.sum_to_size(()) + one.view(()) + x.view(3, 2).t()
    y.sum().backward()
    calls = {
        "view": lambda: x.view(),
        "view_one_element": lambda: one.view(),
        "sum_to_size": lambda: x.sum_to_size(),
        "reshape": lambda: x.reshape(),
        "expand": lambda: x.expand(),
        "repeat": lambda: x.repeat(),
        "permute": lambda: x.permute(),
        "flip": lambda: x.flip(),
        "tile": lambda: x.tile(),
        "new_zeros": lambda: x.new_zeros(),
        "new_empty": lambda: x.new_empty(),
        "view_keyword_empty": lambda: x.view(size=()),
    }
    out = {k: raises(f) for k, f in calls.items()}
    out["values"] = (y, y.grad_fn, x.grad, one.grad, x.sum_to_size([]).shape)
    return out


@program()
def prog_as3_int_dim_given_a_bool(T: Any) -> Any:
    x = _x(T, 2, 3)
    i = T.tensor([[0, 1, 0]])
    v, j = x.sort(1)
    y = v.sum() + x.diff(dim=1).sum() + x.take_along_dim(i, 0).sum()
    y = y + x.renorm(2, 0, 1.0).sum() + x.aminmax(dim=1)[1].sum()
    y.backward()
    calls = {
        "sort_pos": lambda: x.sort(True),
        "sort_kw": lambda: x.sort(dim=True),
        "T.sort_kw": lambda: T.sort(x, dim=True),
        "argsort_pos": lambda: x.argsort(True),
        "T.argsort_kw": lambda: T.argsort(x, dim=False),
        "diff_kw": lambda: x.diff(dim=True),
        "T.diff_pos": lambda: T.diff(x, 1, True),
        "take_along_dim": lambda: x.take_along_dim(i, True),
        "T.take_along_dim_kw": lambda: T.take_along_dim(x, i, dim=True),
        "scatter_add": lambda: x.detach().scatter_add(True, i, x.detach()),
        "T.scatter_add": lambda: T.scatter_add(x.detach(), False, i, x.detach()),
        "renorm": lambda: x.renorm(2, True, 1.0),
        "T.renorm": lambda: T.renorm(x, 2, True, 1.0),
        "aminmax": lambda: x.aminmax(dim=True),
        "T.aminmax": lambda: T.aminmax(x, dim=True),
        "slice_scatter": lambda: x.slice_scatter(x[:, :1], True, 0, 1),
        "T.slice_scatter_kw": lambda: T.slice_scatter(x, x[:, :1], dim=True, start=0, end=1),
    }
    out = {k: raises(f) for k, f in calls.items()}
    out["values"] = (v, j, y, x.grad)
    return out


@program()
def prog_as3_clamp_min_max_and_cdist_arguments(T: Any) -> Any:
    x = _x(T, 2, 3)
    y = T.clamp_min(x, -0.5) + T.clamp_max(x, T.tensor(0.5)) + x.clamp(min=-1.0)
    d = T.cdist(x, x.detach() * 2)
    (y.sum() + d.sum()).backward()
    calls = {
        "clamp_min_str": lambda: T.clamp_min(x, "a"),
        "clamp_min_list": lambda: T.clamp_min(x, [1.0]),
        "clamp_max_str": lambda: T.clamp_max(x, "a"),
        "clamp_min_kw_str": lambda: T.clamp_min(x, min="a"),
        "method_clamp_min_str": lambda: x.clamp_min("a"),
        "method_clamp_max_list": lambda: x.clamp_max([1]),
        "clamp_min_none_input": lambda: T.clamp_min(None, 1),
        "clamp_max_list_input": lambda: T.clamp_max([1.0], 1),
        "clamp_min_none_bound": lambda: T.clamp_min(x, None),
        "clamp_str": lambda: T.clamp(x, "a"),
        "clamp_min_kw_of_clamp": lambda: x.clamp(min="a"),
        "clamp_max_str_second": lambda: x.clamp(0, "a"),
        "cdist_list": lambda: T.cdist([1.0], x),
        "cdist_none": lambda: T.cdist(x, None),
        "cdist_bad_mode_first": lambda: T.cdist([1.0], x, compute_mode="x"),
    }
    out = {k: raises(f) for k, f in calls.items()}
    out["values"] = (y, d, y.grad_fn, d.grad_fn, x.grad)
    return out


@program()
def prog_as3_addcmul_addcdiv_non_tensor_operands(T: Any) -> Any:
    x = _x(T, 2, 3)
    t1 = _x(T, 2, 3, seed=1, rg=False)
    t2 = _x(T, 2, 3, seed=2, rg=False).abs() + 0.5
    y = T.addcmul(x, t1, t2, value=0.5) + x.addcdiv(t1, t2, value=2)
    y.sum().backward()
    calls = {
        "addcmul_none_input": lambda: T.addcmul(None, t1, t2),
        "addcmul_list_tensor1": lambda: T.addcmul(x, [1.0], t2),
        "addcmul_str_tensor1": lambda: T.addcmul(x, "a", t2),
        "addcmul_none_tensor2": lambda: T.addcmul(x, t1, None),
        "addcmul_kw_none": lambda: T.addcmul(x, tensor1=None, tensor2=t2),
        "method_addcmul_list": lambda: x.addcmul([1.0], t2),
        "method_addcmul_str": lambda: x.addcmul("a", t2),
        "method_addcmul__list": lambda: x.detach().addcmul_([1.0], t2),
        "addcdiv_none_input": lambda: T.addcdiv(None, t1, t2),
        "addcdiv_list_tensor1": lambda: T.addcdiv(x, [1.0], t2),
        "method_addcdiv_none": lambda: x.addcdiv(None, t2),
    }
    out = {k: raises(f) for k, f in calls.items()}
    out["values"] = (y, y.grad_fn, x.grad)
    return out


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
