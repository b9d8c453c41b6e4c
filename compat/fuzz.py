"""A stateful random-program generator for autograd semantics, run against torch.

`GraphMachine` is a Hypothesis RuleBasedStateMachine. Each rule appends one Python statement to
a program and runs it on both engines (each in its own namespace, `T` bound to the library):
create leaves, combine tensors with random ops, retain_grad, register hooks that log their calls
(and sometimes scale the gradient), in-place ops, no_grad blocks, detach, backward with and
without retain_graph, autograd.grad with create_graph, and zeroing grads. After every step both
engines must agree on whether the statement raised (type and message), on every variable's
value, dtype, shape, requires_grad, is_leaf, grad_fn, _version and `.grad`, and on the hook log.

A failure is shrunk by Hypothesis to a minimal program and raised as FuzzMismatch, whose message
is the program as a runnable script for both engines. `campaign(n, seed)` runs n programs.
"""

from __future__ import annotations

import dataclasses
import os
import re
import warnings
from typing import Any

import hypothesis
import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from .compare import TOLERANCES, compare
from .engines import ENGINES, ErrorObs, Outcome, TensorObs, normalize, observe

__all__ = ["FuzzMismatch", "GraphMachine", "campaign", "default_examples", "script"]

ENGINE_PAIR = ("torch", "shadowgrad")

# Ops that produce a tensor from one or two tensors; an op that fails (shapes, domain, dtype)
# must fail the same way on both engines (type and message).
UNARY = ["{x}.exp()", "{x}.tanh()", "{x}.sigmoid()", "{x}.relu()", "-{x}", "{x} * {x}",
         "{x} * 2", "{x} + 1", "{x}.sum()", "{x}.mean()", "{x}.reciprocal()", "{x}.clone()",
         "{x}.reshape(-1)", "{x}.sum(0)", "{x}.log()", "{x} ** 2", "1 - {x}", "2 / {x}",
         "{x}.neg()", "{x}.abs()", "{x}.sqrt()", "{x}.sin()", "{x} ** -1", "{x} ** 0.5",
         "{x} ** 0", "{x}.pow(-2)", "2 ** {x}", "(-2.0) ** {x}", "{x} ** 3", "{x}.square()",
         "{x}.rsqrt()", "{x}.log1p()", "{x}.expm1()", "{x}.atan()", "{x}.nan_to_num()",
         "{x}.clamp(min=-0.5, max=1.0)", "{x}.clamp(min=0)", "{x}.clamp(max=0.0)",
         "{x}.sum(-1, keepdim=True)", "{x}.sum((0, -1))", "{x}.sum(dtype=T.float64)",
         "{x}.mean(0, keepdim=True)", "{x}.mean(-1)", "{x}.prod()", "{x}.prod(0)",
         "{x}.amax(0)", "{x}.amin(-1, keepdim=True)", "{x}.max()", "{x}.min()", "{x}.max(0)[0]",
         "{x}.max(-1, keepdim=True).values", "{x}.min(0).indices", "{x}.argmax()",
         "{x}.argmin(-1)", "{x}.std()", "{x}.var(0)", "{x}.std(-1, correction=0)", "{x}.norm()",
         "{x}.norm(dim=0)", "{x}.logsumexp(0)", "{x}.softmax(-1)", "{x}.log_softmax(0)",
         "{x}.softmax(0, dtype=T.float64)", "{x}.cumsum(0)", "{x}.cumprod(-1)", "{x}.sign()",
         "{x}.floor()", "{x}.round()", "{x}.float()", "{x}.double()", "{x}.half()", "{x}.long()",
         "{x}.bool()", "{x}.to(T.float64)", "{x} > 0", "{x} == 0", "{x}.all()", "{x}.any(0)",
         "{x}.masked_fill({x} < 0, 0.5)", "T.where({x} > 0, {x}, 0.0)", "{x}.flip(0)",
         "{x}.roll(1)", "{x}.repeat(2)", "{x}.contiguous()", "{x}.tril()", "{x} // 2", "{x} % 2",
         "{x}.sort(0)[0]", "{x}.topk(1)[0]", "{x}.nonzero()", "{x}.logical_not()", "~{x}",
         "{x}.median()", "{x}.count_nonzero()", "{x}.trace()", "{x}.outer({x})", "{x}.dot({x})",
         "{x} @ {x}", "{x}.sum().item() * {x}", "T.nn.functional.softplus({x})",
         "T.nn.functional.gelu({x})", "{x}.lerp({x} * 2, 0.5)", "{x}.fmod(1.5)",
         "{x}.remainder(-1.5)", "T.std_mean({x})[0]", "{x}[[0, 0]]", "{x}[{x} > 0]",
         "{x}.index_select(0, T.tensor([0]))", "{x}.gather(0, T.zeros_like({x}, dtype=T.long))",
         "{x} + True", "{x} * 2.5", "{x} + T.tensor(1, dtype=T.int64)", "{x} / 2",
         "{x}.true_divide(T.tensor(2))", "{x} + T.tensor(1.0, dtype=T.float64)",
         "{x}.new_ones(2)", "T.zeros_like({x})", "T.ones_like({x}, requires_grad=True)",
         "{x}.type_as({x}.double())", "T.nn.functional.normalize({x}, dim=0)",
         "{x}.mean(dtype=T.float64)", "{x}.cummax(0)[0]"]  # fmt: skip
VIEW_OPS = ["{x}[0]", "{x}.t()", "{x}.unsqueeze(0)", "{x}.transpose(0, -1)",
            "{x}.narrow(0, 0, 1)", "{x}.narrow(-1, 1, 1)", "{x}.select(0, -1)",
            "{x}.expand(2, *{x}.shape)", "{x}[::2]", "{x}[..., 1:]", "{x}.diagonal()",
            "{x}.unbind(0)[0]", "{x}.unbind(-1)[-1]", "{x}.split(1)[-1]", "{x}.chunk(2)[0]",
            "{x}.view_as({x})", "{x}.squeeze()", "{x}.squeeze(0)", "{x}.squeeze(-1)",
            "{x}.unsqueeze(-1)", "{x}.permute(*reversed(range({x}.dim())))", "{x}.view(-1)",
            "{x}.flatten()", "{x}.mT", "{x}.movedim(0, -1)", "{x}[None]", "{x}[..., None]",
            "{x}[-1:]", "{x}[1]", "{x}.unflatten(0, (1, -1))", "{x}.view(1, -1)", "{x}.T",
            "{x}.tensor_split(2)[1]", "{x}.unfold(0, 1, 1)", "{x}.as_strided((1,), (1,))",
            "{x}[:, 1]", "{x}[1:, ::2]", "{x}.view(T.int32)", "{x}.detach()", "{x}.real",
            "{x}.swapaxes(0, -1)", "{x}.expand_as({x})"]  # fmt: skip
BINARY = ["{x} + {y}", "{x} * {y}", "{x} - {y}", "{x} / {y}", "{x} ** {y}", "{x} @ {y}",
          "T.cat([{x}.reshape(-1), {y}.reshape(-1)])", "T.cat([{x}, {y}])",
          "T.cat([{x}, {y}], -1)", "T.stack([{x}, {y}])", "T.stack([{x}, {y}], -1)",
          "T.where({x} > 0, {x}, {y})", "T.where({y}.bool(), {x}, {y})", "T.maximum({x}, {y})",
          "T.minimum({x}, {y})", "T.max({x}, {y})", "T.mm({x}, {y})", "T.mv({x}, {y})",
          "T.dot({x}, {y})", "T.outer({x}, {y})", "{x} == {y}", "{x} < {y}",
          "{x}.expand_as({y})", "{x}.view_as({y})", "{x}.reshape_as({y})", "T.atan2({x}, {y})",
          "{x}.masked_fill({y} > 0, 1.5)", "{x}.masked_fill({y}, 1.5)",
          "T.add({x}, {y}, alpha=2)", "T.sub({x}, {y}, alpha=0.5)", "T.lerp({x}, {y}, 0.5)",
          "T.dist({x}, {y})", "T.hypot({x}, {y})", "{x} // {y}", "{x} % {y}",
          "T.fmax({x}, {y})", "{x} & {y}", "{x} | {y}", "T.addcmul({x}, {x}, {y}, value=0.5)",
          "T.clamp({x}, min={y})", "{x}.clamp(min={y}, max={y} + 1)",
          "T.nn.functional.mse_loss({x}, {y})",
          "T.nn.functional.binary_cross_entropy_with_logits({x}, {y})",
          "T.broadcast_tensors({x}, {y})[0]", "T.xlogy({x}, {y})", "T.copysign({x}, {y})",
          "T.logaddexp({x}, {y})", "T.nn.functional.linear({x}, {y})", "{x}[{y} > 0]",
          "T.where({x} > {y}, {x}, 1.0)", "{x}.matmul({y}.t())", "T.einsum('i,i->', {x}, {y})",
          "{x}.index_add(0, T.tensor([0]), {y})",
          "T.nn.functional.softmax({x} * {y}, -1)"]  # fmt: skip
# In-place statements; {y} may be drawn.
INPLACE = ["{x}.mul_(2)", "{x}.add_(1)", "{x}.exp_()", "{x}.zero_()", "{x}.relu_()",
           "{x}.sigmoid_()", "{x}.neg_()", "{x}.clamp_(min=0)", "{x}.clamp_(-0.5, 0.5)",
           "{x}.pow_(2)", "{x}.div_(2)", "{x}.fill_(1.5)", "{x}.abs_()", "{x}.sqrt_()",
           "{x}.tanh_()", "{x}.masked_fill_({x} > 0, 0.5)", "{x}[0] = 1", "{x}[...] = 2",
           "{x}[{x} < 0] = 0", "{x}.index_put_((T.tensor([0]),), T.tensor(3.0))",
           "{x}.index_put_((T.tensor([0, 0]),), T.tensor(1.0), accumulate=True)", "{x}.t_()",
           "{x}.unsqueeze_(0)", "{x}.squeeze_()", "{x}.floor_()", "{x}.copy_({x} * 2)",
           "{x}.add_({x})", "{x}.mul_({x})", "{x}.sub_(1, alpha=2)", "{x}.addcmul_({x}, {x})",
           "{x}.lerp_({x}.detach(), 0.5)", "{x}.requires_grad_()", "{x}.requires_grad_(False)",
           "{x}.detach_()", "{x}.data.mul_(2)", "{x}.detach().add_(1)", "{x}.transpose_(0, -1)",
           "{x}.add_({y})", "{x}.mul_({y})", "{x}.copy_({y})", "{x}.sub_({y}, alpha=2)",
           "{x}.div_({y})", "{x}[0] = {y}", "{x}[...] = {y}", "{x}.data = {y}",
           "{x}.masked_fill_({y} > 0, 1.0)", "{x}.clamp_(min={y})", "{x}.pow_({y})",
           "{x}.copy_({y}.t())", "{x}.index_add_(0, T.tensor([0]), {y})", "{x}.lerp_({y}, 0.5)",
           "{x}.addcdiv_({y}, {y} + 3)", "{x}[:, 0] = {y}", "{x}[1:] *= 2", "{x} += {y}",
           "{x} *= {y}", "{x} -= 1", "{x} /= {y}", "{x}.grad = T.ones_like({x})",
           "{x}.grad = {y}", "{x}.grad = {y}.double()", "{x}.resize_(0)"]  # fmt: skip
# Third round: nn.functional, reductions over several dims, indexing, scatter/gather, scans,
# sort/topk with indices, promotion with numbers and 0-d tensors, torch.func transforms (vmap on
# detached inputs: its results' grad_fn is xfail program fz2_vmap_result_grad_fn).
UNARY += ["T.nn.functional.linear({x}, T.ones(2, {x}.shape[-1]))",
          "T.nn.functional.linear({x}, T.full((3, 2), 0.5), T.ones(3))",
          "T.nn.functional.conv1d({x}.reshape(1, 1, -1), T.ones(1, 1, 2))",
          "T.nn.functional.conv1d({x}.reshape(1, 1, -1), T.ones(2, 1, 1), padding=1, stride=2)",
          "T.nn.functional.conv2d({x}.reshape(1, 1, 1, -1), T.ones(2, 1, 1, 2), padding=1)",
          "T.nn.functional.max_pool1d({x}.reshape(1, 1, -1), 2)",
          "T.nn.functional.max_pool1d({x}.reshape(1, -1), 2, return_indices=True)[1]",
          "T.nn.functional.avg_pool1d({x}.reshape(1, 1, -1), 2, ceil_mode=True)",
          "T.nn.functional.adaptive_avg_pool1d({x}.reshape(1, 1, -1), 1)",
          "T.nn.functional.adaptive_max_pool1d({x}.reshape(1, 1, -1), 2)",
          "T.nn.functional.max_pool2d({x}.reshape(1, 1, 1, -1), (1, 2))",
          "T.nn.functional.layer_norm({x}, {x}.shape[-1:])",
          "T.nn.functional.layer_norm({x}, {x}.shape, T.ones({x}.shape), None, 1e-3)",
          "T.nn.functional.batch_norm({x}, None, None, training=True)",
          "T.nn.functional.batch_norm({x}, T.zeros({x}.shape[1:2]), T.ones({x}.shape[1:2]))",
          "T.nn.functional.group_norm({x}.reshape(1, -1), 1)",
          "T.nn.functional.instance_norm({x}.reshape(1, 1, -1))",
          "T.nn.functional.rms_norm({x}, {x}.shape[-1:])",
          "T.nn.functional.mse_loss({x}, T.zeros_like({x}), reduction='sum')",
          "T.nn.functional.l1_loss({x}, T.ones_like({x}), reduction='none')",
          "T.nn.functional.smooth_l1_loss({x}, T.zeros_like({x}), beta=0.5)",
          "T.nn.functional.huber_loss({x}, T.ones_like({x}), delta=0.5, reduction='sum')",
          "T.nn.functional.cross_entropy({x}, T.zeros({x}.shape[:1], dtype=T.long))",
          "T.nn.functional.cross_entropy({x}, T.zeros({x}.shape[:1], dtype=T.long), "
          "label_smoothing=0.1, reduction='sum')",
          "T.nn.functional.cross_entropy({x}, {x}.softmax(-1))",
          "T.nn.functional.nll_loss({x}, T.zeros({x}.shape[:1], dtype=T.long), "
          "reduction='none')",
          "T.nn.functional.kl_div({x}, T.full_like({x}, 0.5), reduction='batchmean')",
          "T.nn.functional.binary_cross_entropy({x}.sigmoid(), T.ones_like({x}))",
          "T.nn.functional.soft_margin_loss({x}, T.ones_like({x}))",
          "T.nn.functional.softmax({x}, -1, dtype=T.float64)",
          "T.nn.functional.log_softmax({x}, 0, dtype=T.float32)",
          "T.nn.functional.softmin({x}, 0)", "T.nn.functional.dropout({x}, 0.5, training=False)",
          "T.nn.functional.dropout({x}, 0.0)", "T.nn.functional.dropout1d({x}, training=False)",
          "T.nn.functional.alpha_dropout({x}, 0.2, training=False)",
          "T.nn.functional.leaky_relu({x}, 0.1)", "T.nn.functional.elu({x})",
          "T.nn.functional.silu({x})", "T.nn.functional.hardtanh({x})",
          "T.nn.functional.logsigmoid({x})", "T.nn.functional.relu6({x})",
          "T.nn.functional.hardswish({x})", "T.nn.functional.mish({x})",
          "T.nn.functional.glu({x}, -1)", "T.nn.functional.pad({x}, (1, 1))",
          "T.nn.functional.pad({x}, (1, 0), value=2.0)",
          "T.nn.functional.pad({x}.reshape(1, -1), (1, 1), mode='reflect')",
          "T.nn.functional.embedding(T.tensor([0, 0]), {x})",
          "T.nn.functional.one_hot({x}.long().abs())",
          "{x}.sum((0, 1))", "{x}.mean((-1, -2), keepdim=True)", "{x}.amax((0, -1))",
          "{x}.var((0, 1))", "{x}.std((0,), keepdim=True)", "{x}.logsumexp((0, 1))",
          "{x}.norm(dim=(0, 1))", "{x}.prod(-1, keepdim=True)",
          "T.linalg.vector_norm({x}, 3, dim=(0,))", "T.linalg.vector_norm({x}, float('inf'))",
          "{x}.nansum((0,))", "{x}.count_nonzero((0, -1))", "{x}.sum(())", "{x}.mean(())",
          "{x}.var_mean(0)[0]", "{x}.aminmax()[0]", "{x}.all((0, -1))",
          "{x}[T.tensor([-1, 0])]", "{x}[T.tensor([True, False, True])]", "{x}[..., T.tensor([0])]",
          "{x}[::-1]", "{x}[T.tensor(0)]", "{x}[[True, False]]", "{x}[1:0]", "{x}[None, ..., 0]",
          "{x}[T.tensor([[0]])]", "{x}[T.tensor([0, 1]), T.tensor([0])]", "{x}[{x} != {x}]",
          "{x}[T.tensor(True)]", "{x}[T.tensor([], dtype=T.long)]", "{x}[0, ..., -1]",
          "{x}.scatter(0, T.zeros_like({x}, dtype=T.long), 1.0)",
          "{x}.scatter(-1, T.zeros_like({x}, dtype=T.long), {x}, reduce='add')",
          "{x}.scatter_add(0, T.zeros_like({x}, dtype=T.long), {x})",
          "{x}.scatter_reduce(0, T.zeros_like({x}, dtype=T.long), {x}, 'amax')",
          "{x}.scatter_reduce(0, T.zeros_like({x}, dtype=T.long), {x}, 'mean', "
          "include_self=False)",
          "{x}.index_add(0, T.tensor([0, 0]), {x}[:1].expand(2, *{x}.shape[1:]), alpha=2)",
          "{x}.index_fill(0, T.tensor([0]), -1.0)", "{x}.index_copy(0, T.tensor([0]), {x}[:1])",
          "{x}.take(T.tensor([0, -1]))", "{x}.put(T.tensor([0]), T.tensor(9.0))",
          "T.take_along_dim({x}, T.zeros_like({x}, dtype=T.long))",
          "{x}.gather(-1, T.zeros({x}.shape[:-1] + (2,), dtype=T.long))",
          "{x}.masked_select({x} > 0)", "{x}.index_select(-1, T.tensor([0, 0]))",
          "{x}.cumsum(-1, dtype=T.float64)", "T.logcumsumexp({x}, 0)", "{x}.cummin(-1)[1]",
          "{x}.cumsum(0).flip(0)", "{x}.cumprod(0, dtype=T.float64)", "{x}.diff()",
          "{x}.sort(-1, descending=True)[1]", "{x}.sort(0, stable=True)[0]",
          "{x}.topk(2, largest=False)[0]", "{x}.topk(1, 0)[1]", "{x}.max(-1)[1]",
          "{x}.min(0, keepdim=True)[0]", "{x}.kthvalue(1)[0]", "{x}.argsort()", "{x}.msort()",
          "{x}.mode(0)[0]", "{x}.median(0)[1]", "{x}.nanmedian(-1)[0]", "{x}.argmax(0, True)",
          "{x} * T.tensor(2.5)", "{x} + T.tensor(1, dtype=T.int32)", "{x} / T.tensor(3)",
          "{x} // T.tensor(2.0)", "{x} + T.tensor([1], dtype=T.uint8)", "{x} * True",
          "{x} - T.tensor(0.5, dtype=T.float16)", "T.tensor(2, dtype=T.int8) * {x}",
          "{x} * 1j", "{x} + 2 ** 40", "{x} ** T.tensor(2)", "{x} % T.tensor(-1.5)",
          "{x} + T.tensor([0.5], dtype=T.bfloat16)", "{x}.bfloat16()", "{x}.to(T.complex64)",
          "T.func.grad(lambda t: (t * t).sum())({x})",
          "T.func.grad(lambda t: t.sin().sum())({x})",
          "T.func.vjp(T.sin, {x})[1](T.ones_like({x}))[0]",
          "T.func.jvp(T.exp, ({x},), (T.ones_like({x}),))[1]",
          "T.func.vmap(T.sum)({x}.detach())",
          "T.func.vmap(lambda t: t * 2, in_dims=-1)({x}.detach())",
          "T.func.grad_and_value(lambda t: t.exp().mean())({x})[0]",
          "T.func.jacrev(T.tanh)({x})"]  # fmt: skip
BINARY += ["T.nn.functional.l1_loss({x}, {y}, reduction='sum')",
           "T.nn.functional.cross_entropy({x}, {y})",
           "T.nn.functional.kl_div({x}, {y}, reduction='batchmean', log_target=True)",
           "T.nn.functional.huber_loss({x}, {y}, reduction='none')",
           "T.nn.functional.cosine_similarity({x}, {y}, dim=-1)",
           "T.nn.functional.pairwise_distance({x}, {y})",
           "T.nn.functional.binary_cross_entropy({x}.sigmoid(), {y})",
           "T.nn.functional.poisson_nll_loss({x}, {y})",
           "T.nn.functional.linear({x}, {y}, {y}[0])", "T.nn.functional.bilinear({x}, {x}, {y})",
           "{x}.scatter_add(0, T.zeros_like({y}, dtype=T.long), {y})",
           "T.where({x}.bool(), {y}, 2)", "{x}.masked_scatter({y} > 0, {x})",
           "T.bmm({x}, {y})", "T.baddbmm({x}, {y}, {y})", "T.addmv({x}, {y}, {x})",
           "T.addmm({x}, {y}, {y})", "T.addr({x}, {y}, {y})", "T.kron({x}, {y})",
           "T.tensordot({x}, {y}, dims=1)", "T.tensordot({x}, {y}, dims=0)", "T.cdist({x}, {y})",
           "{x}[{y}.long()]", "{x}[{y}.bool()]", "{x}.take_along_dim({y}.long(), 0)",
           "T.vdot({x}, {y})", "T.inner({x}, {y})", "T.linalg.cross({x}, {y})",
           "T.lerp({x}, {y}, {y})", "T.addcdiv({x}, {y}, {y})", "T.logaddexp({x}, {y})",
           "T.func.vjp(T.mul, {x}, {y})[1](T.ones_like({x} * {y}))[1]",
           "T.func.jvp(T.mul, ({x}, {y}), ({x}, {y}))[1]",
           "{x} + {y}.sum().item()", "{x} * {y}.bool()", "{x}.type_as({y}) - {y}"]  # fmt: skip
INPLACE += ["{x}.scatter_(0, T.zeros_like({y}, dtype=T.long), {y})",
            "{x}.scatter_add_(0, T.zeros_like({y}, dtype=T.long), {y})",
            "{x}.index_fill_(0, T.tensor([0]), 2.0)", "{x}.masked_scatter_({x} > 0, {y})",
            "{x}.hypot_({y})", "{x}.addmm_({y}, {y})", "{x}.baddbmm_({y}, {y})",
            "{x}.addcmul_({y}, {y}, value=2)", "{x}.clamp_({y}, {y})", "{x}.fmod_({y})",
            "{x}.div_({y}, rounding_mode='floor')", "{x}.cumsum_(0)",
            "{x}.put_(T.tensor([0]), {y})",
            "{x}.lerp_({y}, {y})", "{x}[T.tensor([0, 0])] = {y}",
            "{x}[{y} > 0] = {y}.clone()",  # (itself: xfail fz2_masked_setitem_of_itself)
            "{x}[::-1] = 0", "{x}.logit_()", "{x}.bitwise_and_({y})", "{x}.addmv_({y}, {y})",
            "{x}.addr_({y}, {y})", "{x}.atan2_({y})", "{x}.xlogy_({y})", "{x}.copysign_({y})",
            "{x}.remainder_({y})", "{x}.lt_({y})", "{x}.logical_and_({y})",
            "{x}.add_({y}, alpha=0.5)",
            "{x}.index_copy_(0, T.tensor([0]), {y})", "{x}.masked_fill_({y}.bool(), {y})",
            "{x}.clamp_(max={y})", "{x}.nan_to_num_(0.0)", "{x}.sort(0)[0].exp_()"]  # fmt: skip
BACKWARDS = ["sum", "ones", "plain", "inputs", "two", "double", "create", "anomaly"]
# Grad-mode blocks a statement may run in.
MODES = ["T.no_grad()", "T.no_grad(), T.enable_grad()", "T.set_grad_enabled(False)",
         "T.inference_mode()", "T.inference_mode(), T.inference_mode(False)", "T.enable_grad()",
         "T.no_grad(), T.inference_mode()", "T.autograd.set_grad_enabled(True)",
         "T.autograd.detect_anomaly()", "T.autograd.detect_anomaly(check_nan=False)"]  # fmt: skip
MODE_CHOICES = [None] * 10 + MODES
# A statement that raises on both engines with errors matching these patterns (torch's,
# shadowgrad's: "Type: message" regexes) is taken as agreeing; each is a strict xfail program.
KNOWN_ERRORS: list[tuple[str, str]] = []
SHAPES = [(), (1,), (3,), (2, 3), (3, 1), (1, 3), (0,), (2, 2), (0, 3), (2, 1, 2)]
VALUES = [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0]
SPECIAL = [float("inf"), float("-inf"), float("nan")]
DTYPES = ["float32", "float32", "float32", "float64", "float64", "float16", "int64", "bool",
          "bfloat16", "complex64", "int32"]  # fmt: skip
# Custom autograd.Functions a program may use: saved tensors, mark_dirty,
# mark_non_differentiable, once_differentiable, an input returned as is.
FUNCTIONS = """class Sq(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        log.append(("Sq", tuple(g.shape)))
        return 2 * g * x

class Dirty(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.mul_(2)

    @staticmethod
    def backward(ctx, g):
        return g * 2

class NonDiff(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        m = (x > 0).to(x.dtype)
        ctx.mark_non_differentiable(m)
        ctx.save_for_backward(m)
        return x * 3, m

    @staticmethod
    def backward(ctx, g, gm):
        (m,) = ctx.saved_tensors
        log.append(("NonDiff", None if gm is None else gm.abs().sum().item()))
        return g * 3 + m * 0

class Once(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    @T.autograd.function.once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.exp()

class Ident(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        log.append(("Ident", tuple(g.shape)))
        return g * 2"""
CALLS = ["Sq.apply({x})", "Dirty.apply({x})", "NonDiff.apply({x})[0]", "NonDiff.apply({x})[1]",
         "Once.apply({x})", "Ident.apply({x})", "Sq.apply(Ident.apply({x}))",
         "NonDiff.apply({x})[0] + NonDiff.apply({x})[1]"]  # fmt: skip


class FuzzMismatch(AssertionError):
    """The engines disagree; the message is the minimal program as a runnable script."""


def script(lines: list[str], failing: int | None = None, detail: str = "") -> str:
    """A program as a runnable script: prog(T) runs on torch and shadowgrad and prints both."""
    body = ["log = []"]
    for i, ln in enumerate(lines):
        if i == failing:
            body.append("# the engines disagree after the next statement")
        body.append(ln)
    out = ["import torch", "import shadowgrad", "", "", "def prog(T):"]
    for ln in body:
        if ln.startswith("try:") or "\n" in ln:
            out += ["    " + part for part in ln.split("\n")]
        else:
            out.append("    " + ln)
    out.append("    return {k: v for k, v in locals().items() if k.startswith('v')}, log")
    out += ["", "", "for T in (torch, shadowgrad):", "    print(T.__name__, prog(T))"]
    head = f"# {detail}\n" if detail else ""
    return head + "\n".join(out)


def _literal(shape: tuple[int, ...], flat: list[float], dtype: str = "float32") -> str:
    if dtype == "bool":
        vals: list[Any] = [bool(v) for v in flat]
    elif dtype.startswith("int"):
        vals = [int(v) for v in flat]
    else:
        vals = list(flat)
    text = repr(np.asarray(vals, dtype=object).reshape(shape).tolist())
    return text.replace("nan", "float('nan')").replace("inf", "float('inf')")


class GraphMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        a, b = ENGINES[ENGINE_PAIR[0]], ENGINES[ENGINE_PAIR[1]]
        self.engines = (a, b)
        self.ns = [{"T": a.module(), "log": []}, {"T": b.module(), "log": []}]
        # Note [Fuzz float64 reference]: the same program on torch with float32 read as float64.
        # It tells a last-bit difference that the program amplified (x ** x after two exp_) from
        # a wrong value: see engines_agree. None once it stops shadowing torch (an outcome that
        # differs from torch's, e.g. an in-place dtype error only float32 raises).
        self.ref: dict[str, Any] | None = {"T": _Float64(a.module()), "log": []}
        self.lines: list[str] = []
        self.names: list[str] = []  # variables holding tensors in both engines
        self.handles: list[str] = []  # hook handles
        self.functions = False  # whether FUNCTIONS are defined
        self.half = False  # whether float16 appears: values compared at float16's tolerance
        self.bf16 = False  # whether bfloat16 appears: at bfloat16's
        self.loose_version: set[str] = set()  # see _note_inference_inputs

    # --- running a statement ----------------------------------------------------------------
    def _exec(self, stmt: str, new: str | None = None) -> None:
        code = compile(stmt, "<fuzz>", "exec")
        if "float16" in stmt:
            self.half = True
            self.bf16 = self.bf16 or "bfloat16" in stmt
        errs: list[ErrorObs | None] = []
        for ns, eng in zip(self.ns, self.engines, strict=True):
            with eng.session(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    exec(code, ns)
                    errs.append(None)
                except Exception as e:
                    errs.append(ErrorObs.of(e))
        ea, eb = errs
        if self.ref is not None:
            with self.engines[0].session(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    exec(code, self.ref)
                    failed = False
                except Exception:
                    failed = True
            if failed != (ea is not None):
                self.ref = None
        if ea is not None:
            guarded = f"try:\n    {stmt.replace(chr(10), chr(10) + '    ')}\nexcept Exception as e:\n    log.append(repr(e))"  # noqa: E501
            self.lines.append(guarded)
        else:
            self.lines.append(stmt)
        known = (
            ea is not None
            and eb is not None
            and any(re.match(p, str(ea)) and re.match(q, str(eb)) for p, q in KNOWN_ERRORS)
        )
        if ((ea is None) != (eb is None) or (ea is not None and ea != eb)) and not known:
            self._fail(f"statement outcome: torch {ea or 'ok'} vs shadowgrad {eb or 'ok'}")
        if ea is None and new is not None and all(_is_tensor(ns.get(new)) for ns in self.ns):
            self.names.append(new)

    def _fail(self, detail: str) -> None:
        raise FuzzMismatch(
            f"{detail}\n\nminimal program (runs on both engines):\n\n"
            + script(self.lines, len(self.lines) - 1, "torch and shadowgrad disagree")
        )

    def _new(self) -> str:
        return f"v{len(self.lines)}"

    # --- rules --------------------------------------------------------------------------------
    def _pick(self, data: Any) -> str:
        return data.draw(st.sampled_from(self.names))

    def _in_mode(self, stmt: str, mode: str | None) -> str:
        if mode is None:
            return stmt
        if "float16" in mode:
            self.half = True
        return f"with {mode}:\n    " + stmt.replace("\n", "\n    ")

    @rule(
        shape=st.sampled_from(SHAPES),
        data=st.data(),
        requires_grad=st.booleans(),
        dtype=st.sampled_from(DTYPES),
        special=st.integers(0, 5),
    )
    def leaf(
        self, shape: tuple[int, ...], data: Any, requires_grad: bool, dtype: str, special: int
    ) -> None:
        n = 1
        for s in shape:
            n *= s
        values = VALUES + SPECIAL if special == 0 and dtype.startswith("float") else VALUES
        flat = data.draw(st.lists(st.sampled_from(values), min_size=n, max_size=n))
        if dtype == "float16":
            self.half = True
        v = self._new()
        lit = f"T.zeros({shape}" if n == 0 else f"T.tensor({_literal(shape, flat, dtype)}"
        self._exec(f"{v} = {lit}, dtype=T.{dtype}, requires_grad={requires_grad})", v)

    @precondition(lambda self: self.names)
    @rule(data=st.data(), op=st.sampled_from(UNARY + VIEW_OPS + BINARY + CALLS),
          mode=st.sampled_from(MODE_CHOICES))  # fmt: skip
    def compute(self, data: Any, op: str, mode: str | None) -> None:
        if op in CALLS:
            self._functions()
        x = self._pick(data)
        y = self._pick(data) if "{y}" in op else None
        if "half()" in op:
            self.half = True
        v = self._new()
        self._exec(self._in_mode(f"{v} = " + op.format(x=x, y=y), mode), v)
        self._note_inference_inputs(v, x, y)

    @precondition(lambda self: self.names)
    @rule(data=st.data(), op=st.sampled_from(INPLACE), mode=st.sampled_from(MODE_CHOICES),
          view=st.sampled_from([None] * 4 + VIEW_OPS[:24]))  # fmt: skip
    def inplace(self, data: Any, op: str, mode: str | None, view: str | None) -> None:
        x = self._pick(data)
        y = self._pick(data) if "{y}" in op else None
        if view is not None and not op.startswith("{x} "):
            x = view.format(x=x)  # the in-place op writes through a view made on the spot
        self._exec(self._in_mode(op.format(x=x, y=y), mode))

    @precondition(lambda self: self.names)
    @rule(data=st.data())
    def retain_grad(self, data: Any) -> None:
        self._exec(f"{self._pick(data)}.retain_grad()")

    @precondition(lambda self: self.names)
    @rule(
        data=st.data(),
        ret=st.sampled_from([None, "g * 2.0", "g * -1.0", "g + 1", "g.double()", "g[0]",
                             "g.mul_(2)", "T.zeros_like(g)"]),
        post=st.integers(0, 3),
    )  # fmt: skip
    def hook(self, data: Any, ret: str | None, post: int) -> None:
        x = self._pick(data)
        t = self.ns[0][x]
        if t._is_view() and t._version and t._base.requires_grad:
            # torch 2.13 segfaults registering a hook on a view of a tensor that requires grad
            # once the base was modified in place under no_grad (v = b.expand_as(b); with
            # no_grad: b -= 1; v.register_hook(f)): stepped around
            return
        k = len(self.lines)
        if post == 0:
            self._exec(
                f"h{k} = {x}.register_post_accumulate_grad_hook(lambda p: log.append(({k}, "
                "None if p.grad is None else (tuple(p.grad.shape), p.grad.sum().item()))))"
            )
        else:
            r = "" if ret is None else f" or {ret}"
            self._exec(
                f"h{k} = {x}.register_hook(lambda g: log.append(({k}, tuple(g.shape), "
                f"g.dtype, g.sum().item())){r})"
            )
        if self.lines[-1].startswith("h"):
            self.handles.append(f"h{k}")

    @precondition(lambda self: self.handles)
    @rule(data=st.data())
    def remove_hook(self, data: Any) -> None:
        self._exec(f"{data.draw(st.sampled_from(self.handles))}.remove()")

    @precondition(lambda self: self.names)
    @rule(data=st.data(), retain=st.booleans(), how=st.sampled_from(BACKWARDS))
    def backward(self, data: Any, retain: bool, how: str) -> None:
        x = self._pick(data)
        rg = ", retain_graph=True" if retain else ""
        if how == "sum":
            self._exec(f"{x}.sum().backward({rg.lstrip(', ')})")
        elif how == "ones":
            self._exec(f"{x}.backward(T.ones_like({x}){rg})")
        elif how == "plain":
            self._exec(f"{x}.backward({rg.lstrip(', ')})")
        elif how == "inputs":
            self._exec(f"{x}.sum().backward(inputs=[{self._pick(data)}]{rg})")
        elif how == "two":
            self._exec(f"T.autograd.backward([{x}.sum(), {self._pick(data)}.sum()]{rg})")
        elif how == "double":
            self._exec(f"{x}.backward(T.ones({x}.shape, dtype=T.float64){rg})")
        elif how == "anomaly":  # a NaN gradient raises, naming the node that produced it
            self._exec(f"with T.autograd.detect_anomaly():\n    {x}.sum().backward({rg[2:]})")
        else:
            self._exec(f"{x}.sum().backward(create_graph=True)")

    @precondition(lambda self: self.names)
    @rule(data=st.data(), create_graph=st.booleans(), retain=st.sampled_from([True, None, False]),
          allow_unused=st.sampled_from([True, False, None]), two=st.booleans(),
          outputs=st.sampled_from(["sum", "ones", "twos"]), materialize=st.booleans())  # fmt: skip
    def grad(
        self,
        data: Any,
        create_graph: bool,
        retain: bool | None,
        allow_unused: bool | None,
        two: bool,
        outputs: str,
        materialize: bool,
    ) -> None:
        y = self._pick(data)
        xs = [self._pick(data) for _ in range(2 if two else 1)]
        v = self._new()
        out = f"{y}.sum()" if outputs == "sum" else y
        args = [out, f"[{', '.join(xs)}]"]
        if outputs == "ones":
            args.append(f"grad_outputs=T.ones_like({y})")
        elif outputs == "twos":
            args.append(f"grad_outputs=[T.full_like({y}, 2.0)]")
        if create_graph:
            args.append("create_graph=True")
        if retain is not None:
            args.append(f"retain_graph={retain}")
        if allow_unused is not None:
            args.append(f"allow_unused={allow_unused}")
        if materialize:
            args.append("materialize_grads=True")
        self._exec(f"{v} = T.autograd.grad({', '.join(args)})[-1]", v)

    @precondition(lambda self: self.names)
    @rule(data=st.data(), how=st.sampled_from(["none", "zero_"]))
    def zero_grad(self, data: Any, how: str) -> None:
        x = self._pick(data)
        if how == "none":
            self._exec(f"{x}.grad = None")
        else:
            self._exec(f"if {x}.grad is not None:\n    {x}.grad.zero_()")

    @precondition(lambda self: self.names)
    @rule(data=st.data(), op=st.sampled_from(UNARY[:40] + BINARY[:12] + CALLS[:3]))
    def saved_hooks(self, data: Any, op: str) -> None:
        # pack and unpack log the tensors saved for backward: what each op saves must match
        if op in CALLS:
            self._functions()
        x, y = self._pick(data), self._pick(data)
        k = len(self.lines)
        v = self._new()
        self._exec(
            "with T.autograd.graph.saved_tensors_hooks("
            f"lambda t: (log.append(('pack', {k}, tuple(t.shape), t.dtype)), t)[1], "
            f"lambda t: (log.append(('unpack', {k}, tuple(t.shape))), t)[1]):\n"
            f"    {v} = " + op.format(x=x, y=y),
            v,
        )
        self._note_inference_inputs(v, x, y)

    def _note_inference_inputs(self, v: str, *used: str | None) -> None:
        """A normal tensor computed from an inference tensor: its _version is not compared.
        torch's kernels that write their result through an in-place op (sum, mean, clone,
        cumsum, sort, ...) bump it then (program fz_inference_input_bumps_result_version)."""
        ns = self.ns[0]
        if (
            v in ns
            and _is_tensor(ns[v])
            and not ns[v].is_inference()
            and any(u is not None and _is_tensor(ns.get(u)) and ns[u].is_inference() for u in used)
        ):
            self.loose_version.add(v)

    def _functions(self) -> None:
        if not self.functions:
            self.functions = True
            self._exec(FUNCTIONS)

    # --- the oracle -----------------------------------------------------------------------------
    @invariant()
    def engines_agree(self) -> None:
        if not self.lines:
            return
        outs = []
        for ns, eng in zip(self.ns, self.engines, strict=True):
            with eng.session() as T:
                state = {n: _observe(T, ns[n]) for n in self.names}
            for n in self.loose_version:
                state[n].pop("_version", None)  # (an observe_error has none)
            outs.append(Outcome(eng.name, normalize({"vars": state, "log": list(ns["log"])})))
        tol = TOLERANCES["bfloat16" if self.bf16 else "float16"] if self.half else _FUZZ_TOL
        diffs = compare(*outs, tol=tol, compare_warnings=False)
        if diffs and self.ref is not None:
            # values that torch's float32 and shadowgrad's both approximate: forgiven where
            # shadowgrad's is as close to the float64 reference as torch's (Note [Fuzz float64
            # reference]); every other observation is still compared
            with self.engines[0].session() as T:
                ref = {n: _observe(T, self.ref.get(n)) for n in self.names}
            outs[1] = Outcome(outs[1].engine, _forgive(outs[0].result, outs[1].result, ref))
            diffs = compare(*outs, tol=tol, compare_warnings=False)
        if diffs:
            self._fail("state after the last statement:\n" + "\n".join(d.render() for d in diffs))


# Random programs mix float32 and float64 freely, so a float64 value can carry a float32
# intermediate's last-bit difference (numpy's and ATen's exp differ by one ulp): values are
# compared at float32's tolerance; the fuzzer is after semantics (graphs, versions, errors).
_FUZZ_TOL = TOLERANCES["float32"]


class _Float64:
    """torch as the float64 reference sees it: `T.float32` is float64, the rest is torch."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, "float64" if name == "float32" else name)


def _forgive(torch_out: Any, sg_out: Any, ref: dict[str, Any]) -> Any:
    """shadowgrad's observations with each float value that is explained by rounding replaced
    by torch's: where, elementwise, |shadowgrad - reference| is within float32's tolerance of
    the float64 reference or at most 4x torch's own distance from it."""
    out = {"vars": dict(sg_out["vars"]), "log": sg_out["log"]}
    for name, obs in sg_out["vars"].items():
        t_obs, r_obs = torch_out["vars"].get(name), ref.get(name)
        if not isinstance(obs, dict) or not isinstance(t_obs, dict) or r_obs is None:
            continue
        new = dict(obs)
        for key in ("tensor", "grad"):
            s, t, r = obs.get(key), t_obs.get(key), r_obs.get(key)
            if all(isinstance(o, TensorObs) for o in (s, t, r)) and _explained(s, t, r):
                new[key] = dataclasses.replace(s, value=t.value)
        out["vars"][name] = new
    return out


def _explained(s: TensorObs, t: TensorObs, r: TensorObs) -> bool:
    if not (s.value.shape == t.value.shape == r.value.shape) or s.value.dtype.kind != "f":
        return False
    sv, tv, rv = (np.asarray(o.value, dtype=np.float64) for o in (s, t, r))
    with np.errstate(all="ignore"):
        close = np.abs(sv - rv) <= _FUZZ_TOL.atol + _FUZZ_TOL.rtol * np.abs(rv)
        as_good = np.abs(sv - rv) <= 4 * np.abs(tv - rv)
    finite = np.isfinite(sv) & np.isfinite(tv) & np.isfinite(rv)
    same = (sv == tv) | (np.isnan(sv) & np.isnan(tv))
    return bool(np.all(same | (finite & (close | as_good))))


def _observe(T: Any, t: Any) -> Any:
    """observe(), or the error reading the tensor's state raised (a custom Function's view whose
    base was modified in place raises on grad_fn): that must agree too."""
    try:
        return observe(T, t)
    except Exception as e:
        return {"observe_error": ErrorObs.of(e)}


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "grad_fn") and hasattr(x, "requires_grad")


def default_examples() -> int:
    return int(os.environ.get("COMPAT_FUZZ_EXAMPLES", "1000"))


def campaign(
    n: int, seed: int | None = None, derandomize: bool = True, steps: int = 12
) -> FuzzMismatch | None:
    """Run n random programs; return the first mismatch, shrunk, if any.

    seed: a fixed seed (the same programs for the same seed, different ones per seed);
    otherwise derandomize: the same programs on every run (pytest); False explores new ones
    (the CLI).
    """
    s = settings(
        max_examples=n,
        stateful_step_count=steps,
        deadline=None,
        derandomize=derandomize and seed is None,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        report_multiple_bugs=False,
    )

    def factory() -> GraphMachine:
        return GraphMachine()

    if seed is not None:
        factory = hypothesis.seed(seed)(factory)
    try:
        run_state_machine_as_test(factory, settings=s)
    except FuzzMismatch as e:
        return e
    return None
