"""Realistic programs: the model tutorials of pytorch/tutorials, shrunk to tiny sizes and
synthetic data. LSTM taggers, n-gram and CBOW embeddings, a Bi-LSTM CRF, character RNNs
(nn.RNN and hand-written cells), a GRU encoder with an attention decoder, transformer encoders
and nn.Transformer with masks, a DCGAN with two optimizers, a DQN update with a soft target
copy, neural style transfer with LBFGS, a spatial transformer and the CIFAR classifier. Each
program trains a few steps and returns losses, outputs, every parameter gradient and the
optimizer state, plus eval()/train() switching, no_grad evaluation and the errors users hit.
The programs register into test_realistic_programs_3's set and run through its harness: each
`prog(T)` runs on torch and on shadowgrad, and everything it returns, raises or warns is
compared.
"""

from __future__ import annotations

import collections
import io
import math
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _grads(model: Any) -> dict[str, Any]:
    return {n: p.grad for n, p in model.named_parameters()}


def _params(model: Any) -> dict[str, Any]:
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def _ostate(opt: Any) -> Any:
    sd = opt.state_dict()
    return {"state": {k: dict(v) for k, v in sd["state"].items()}, "groups": sd["param_groups"]}


def _ints(n: int, high: int, seed: int) -> list[int]:
    return [int(v) for v in np.random.default_rng(seed).integers(0, high, n)]


# --- sequence models: the LSTM part-of-speech tagger ------------------------------------------


def _tagger(T: Any, vocab: int, emb: int, hid: int, tags: int, **lstm_kw: Any) -> Any:
    nn = T.nn
    F = T.nn.functional

    class Tagger(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.word_embeddings = nn.Embedding(vocab, emb)
            self.lstm = nn.LSTM(emb, hid, **lstm_kw)
            self.hidden2tag = nn.Linear(hid * (2 if lstm_kw.get("bidirectional") else 1), tags)

        def forward(self, sentence: Any) -> Any:
            embeds = self.word_embeddings(sentence)
            lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
            tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
            return F.log_softmax(tag_space, dim=1)

    return _seeded(T, Tagger(), 1)


_SENTS = [([0, 1, 2, 3], [0, 1, 2, 0]), ([4, 2, 5, 1, 3], [1, 2, 0, 2, 1])]


@program()
def prog_tut_md_lstm_tagger_trains(T: Any) -> Any:
    model = _tagger(T, 6, 4, 5, 3)
    loss_function = T.nn.NLLLoss()
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    with T.no_grad():
        before = model(T.tensor(_SENTS[0][0], dtype=T.long))
    losses = []
    for _epoch in range(3):
        for sentence, tags in _SENTS:
            model.zero_grad()
            scores = model(T.tensor(sentence, dtype=T.long))
            loss = loss_function(scores, T.tensor(tags, dtype=T.long))
            loss.backward()
            opt.step()
            losses.append(loss)
    with T.no_grad():
        after = model(T.tensor(_SENTS[0][0], dtype=T.long))
    return {
        "losses": losses,
        "before": before,
        "after": after,
        "pred": after.argmax(1),
        "grads": _grads(model),
        "params": _params(model),
        "last_grad_fn": losses[-1].grad_fn,
    }


@program()
def prog_tut_md_lstm_step_by_step_equals_whole_sequence(T: Any) -> Any:
    lstm = _seeded(T, T.nn.LSTM(3, 3), 2)
    inputs = [T.tensor(_data(1, 3, seed=i)) for i in range(5)]
    hidden = (T.tensor(_data(1, 1, 3, seed=10)), T.tensor(_data(1, 1, 3, seed=11)))
    outs = []
    h = hidden
    for i in inputs:
        out, h = lstm(i.view(1, 1, -1), h)
        outs.append(out)
    stepwise = T.cat(outs)
    whole, (hn, cn) = lstm(T.cat(inputs).view(len(inputs), 1, -1), hidden)
    (stepwise.sum() + whole.pow(2).sum() + cn.sum()).backward()
    return {
        "stepwise": stepwise,
        "whole": whole,
        "hn": hn,
        "cn": cn,
        "same_h": T.allclose(h[0], hn),
        "grads": _grads(lstm),
        "out_fn": whole.grad_fn,
    }


@program()
def prog_tut_md_lstm_tagger_bidirectional_two_layers_adam(T: Any) -> Any:
    model = _tagger(T, 6, 4, 3, 3, num_layers=2, bidirectional=True)
    opt = T.optim.Adam(model.parameters(), lr=0.01)
    losses = []
    for sentence, tags in _SENTS * 2:
        opt.zero_grad()
        scores = model(T.tensor(sentence))
        loss = T.nn.functional.nll_loss(scores, T.tensor(tags))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return {"losses": losses, "grads": _grads(model), "state": _ostate(opt)}


@program()
def prog_tut_md_lstm_tagger_char_level_features(T: Any) -> Any:
    # the tutorial's exercise: a character LSTM's final hidden state joins the word embedding
    nn = T.nn
    F = T.nn.functional

    class CharTagger(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.word_emb = nn.Embedding(6, 3)
            self.char_emb = nn.Embedding(5, 2)
            self.char_lstm = nn.LSTM(2, 2)
            self.lstm = nn.LSTM(5, 4)
            self.out = nn.Linear(4, 3)

        def forward(self, words: Any, chars: list[Any]) -> Any:
            feats = []
            for w, cs in zip(words, chars, strict=True):
                _, (h, _) = self.char_lstm(self.char_emb(cs).unsqueeze(1))
                feats.append(T.cat([self.word_emb(w).view(1, -1), h.view(1, -1)], dim=1))
            seq = T.cat(feats).unsqueeze(1)
            out, _ = self.lstm(seq)
            return F.log_softmax(self.out(out.squeeze(1)), dim=-1)

    model = _seeded(T, CharTagger(), 3)
    words = T.tensor([0, 4, 2])
    chars = [T.tensor([1, 2]), T.tensor([3, 0, 4]), T.tensor([2])]
    opt = T.optim.SGD(model.parameters(), lr=0.2, momentum=0.5)
    losses = []
    for _ in range(2):
        opt.zero_grad()
        loss = F.nll_loss(model(words, chars), T.tensor([2, 0, 1]))
        loss.backward()
        opt.step()
        losses.append(loss)
    return {"losses": losses, "grads": _grads(model), "state": _ostate(opt)}


# --- word embeddings: n-gram language model and CBOW ------------------------------------------


@program()
def prog_tut_md_ngram_language_model(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    CONTEXT, EMB, V = 2, 3, 7
    text = _ints(12, V, seed=4)
    ngrams = [([text[i - j - 1] for j in range(CONTEXT)], text[i]) for i in range(CONTEXT, 12)]

    class NGram(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embeddings = nn.Embedding(V, EMB)
            self.linear1 = nn.Linear(CONTEXT * EMB, 8)
            self.linear2 = nn.Linear(8, V)

        def forward(self, inputs: Any) -> Any:
            embeds = self.embeddings(inputs).view((1, -1))
            out = F.relu(self.linear1(embeds))
            return F.log_softmax(self.linear2(out), dim=1)

    model = _seeded(T, NGram(), 5)
    loss_function = nn.NLLLoss()
    optimizer = T.optim.SGD(model.parameters(), lr=0.05)
    losses = []
    for _epoch in range(2):
        total = 0
        for context, target in ngrams:
            model.zero_grad()
            log_probs = model(T.tensor(context, dtype=T.long))
            loss = loss_function(log_probs, T.tensor([target], dtype=T.long))
            loss.backward()
            optimizer.step()
            total += loss.item()
        losses.append(total)
    return {
        "losses": losses,
        "emb_row": model.embeddings.weight[text[0]],
        "grads": _grads(model),
    }


@program()
def prog_tut_md_cbow_sum_of_context_embeddings(T: Any) -> Any:
    nn = T.nn
    V, EMB = 8, 4
    text = _ints(14, V, seed=6)
    data = [([text[i - 2], text[i - 1], text[i + 1], text[i + 2]], text[i]) for i in range(2, 12)]

    class CBOW(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(V, EMB)
            self.proj = nn.Linear(EMB, V)
            self.act = nn.LogSoftmax(dim=-1)

        def forward(self, ctx: Any) -> Any:
            return self.act(self.proj(self.emb(ctx).sum(dim=0, keepdim=True)))

    model = _seeded(T, CBOW(), 7)
    opt = T.optim.Adam(model.parameters(), lr=0.05)
    crit = nn.NLLLoss()
    losses = []
    for ctx, tgt in data:
        opt.zero_grad()
        loss = crit(model(T.tensor(ctx)), T.tensor([tgt]))
        loss.backward()
        opt.step()
        losses.append(loss)
    return {"losses": losses, "grads": _grads(model), "state": _ostate(opt)}


@program()
def prog_tut_md_embedding_max_norm_renormalizes_rows_in_forward(T: Any) -> Any:
    emb = T.nn.Embedding(5, 3, max_norm=1.0)
    with T.no_grad():
        emb.weight.copy_(T.tensor(_data(5, 3, seed=8) * 2))
    v0 = emb.weight._version
    idx = T.tensor([[0, 2], [2, 4]])
    y = emb(idx)
    (y * T.tensor(_data(2, 2, 3, seed=9))).sum().backward()
    return {
        "y": y,
        "weight": emb.weight.detach().clone(),
        "norms": emb.weight.detach().norm(dim=1),
        "grad": emb.weight.grad,
        "bumped": emb.weight._version > v0,
    }


@program()
def prog_tut_md_embedding_padding_idx_and_lookup_grad(T: Any) -> Any:
    emb = _seeded(T, T.nn.Embedding(6, 3, padding_idx=0), 10)
    with T.no_grad():
        emb.weight[0].zero_()
    batch = T.tensor([[1, 2, 0, 0], [3, 3, 5, 0]])
    out = emb(batch)
    lengths = (batch != 0).sum(1, keepdim=True)
    mean = out.sum(1) / lengths
    mean.pow(2).sum().backward()
    return {"mean": mean, "grad": emb.weight.grad, "lengths": lengths, "fn": mean.grad_fn}


# --- advanced: Bi-LSTM CRF -----------------------------------------------------------------


def _bilstm_crf(T: Any) -> Any:
    nn = T.nn
    START, STOP = 3, 4
    NT = 5

    def argmax(vec: Any) -> int:
        _, idx = T.max(vec, 1)
        return idx.item()

    def log_sum_exp(vec: Any) -> Any:
        max_score = vec[0, argmax(vec)]
        bcast = max_score.view(1, -1).expand(1, vec.size()[1])
        return max_score + T.log(T.sum(T.exp(vec - bcast)))

    class BiLSTM_CRF(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.word_embeds = nn.Embedding(6, 4)
            self.lstm = nn.LSTM(4, 2, num_layers=1, bidirectional=True)
            self.hidden2tag = nn.Linear(4, NT)
            self.transitions = nn.Parameter(T.tensor(_data(NT, NT, seed=12)))
            self.transitions.data[START, :] = -10000
            self.transitions.data[:, STOP] = -10000
            self.hidden = (T.tensor(_data(2, 1, 2, seed=13)), T.tensor(_data(2, 1, 2, seed=14)))

        def _forward_alg(self, feats: Any) -> Any:
            init_alphas = T.full((1, NT), -10000.0)
            init_alphas[0][START] = 0.0
            forward_var = init_alphas
            for feat in feats:
                alphas_t = []
                for next_tag in range(NT):
                    emit = feat[next_tag].view(1, -1).expand(1, NT)
                    trans = self.transitions[next_tag].view(1, -1)
                    alphas_t.append(log_sum_exp(forward_var + trans + emit).view(1))
                forward_var = T.cat(alphas_t).view(1, -1)
            terminal = forward_var + self.transitions[STOP]
            return log_sum_exp(terminal)

        def _get_lstm_features(self, sentence: Any) -> Any:
            embeds = self.word_embeds(sentence).view(len(sentence), 1, -1)
            lstm_out, _ = self.lstm(embeds, self.hidden)
            return self.hidden2tag(lstm_out.view(len(sentence), 4))

        def _score_sentence(self, feats: Any, tags: Any) -> Any:
            score = T.zeros(1)
            tags = T.cat([T.tensor([START], dtype=T.long), tags])
            for i, feat in enumerate(feats):
                score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
            return score + self.transitions[STOP, tags[-1]]

        def _viterbi_decode(self, feats: Any) -> Any:
            backpointers = []
            init_vvars = T.full((1, NT), -10000.0)
            init_vvars[0][START] = 0
            forward_var = init_vvars
            for feat in feats:
                bptrs_t = []
                viterbivars_t = []
                for next_tag in range(NT):
                    next_tag_var = forward_var + self.transitions[next_tag]
                    best = argmax(next_tag_var)
                    bptrs_t.append(best)
                    viterbivars_t.append(next_tag_var[0][best].view(1))
                forward_var = (T.cat(viterbivars_t) + feat).view(1, -1)
                backpointers.append(bptrs_t)
            terminal = forward_var + self.transitions[STOP]
            best = argmax(terminal)
            path_score = terminal[0][best]
            path = [best]
            for bptrs_t in reversed(backpointers):
                best = bptrs_t[best]
                path.append(best)
            start = path.pop()
            assert start == START
            path.reverse()
            return path_score, path

        def neg_log_likelihood(self, sentence: Any, tags: Any) -> Any:
            feats = self._get_lstm_features(sentence)
            return self._forward_alg(feats) - self._score_sentence(feats, tags)

        def forward(self, sentence: Any) -> Any:
            return self._viterbi_decode(self._get_lstm_features(sentence))

    return _seeded(T, BiLSTM_CRF(), 15), START


@program()
def prog_tut_md_bilstm_crf_trains_and_decodes(T: Any) -> Any:
    model, START = _bilstm_crf(T)
    with T.no_grad():
        model.transitions[START, :] = -10000
    data = [
        (T.tensor([0, 1, 2]), T.tensor([0, 1, 1])),
        (T.tensor([3, 4, 5, 1]), T.tensor([2, 2, 0, 1])),
    ]
    opt = T.optim.SGD(model.parameters(), lr=0.01, weight_decay=1e-4)
    with T.no_grad():
        before = model(data[0][0])
    losses = []
    for _ in range(2):
        for sentence, tags in data:
            model.zero_grad()
            loss = model.neg_log_likelihood(sentence, tags)
            loss.backward()
            opt.step()
            losses.append(loss)
    with T.no_grad():
        after = model(data[1][0])
    return {
        "before": before,
        "after": after,
        "losses": losses,
        "loss_fn": losses[-1].grad_fn,
        "grads": _grads(model),
    }


@program()
def prog_tut_md_log_sum_exp_trick_matches_logsumexp(T: Any) -> Any:
    v = T.tensor(_data(1, 6, seed=16) * 30, requires_grad=True)
    m = v[0, T.max(v, 1)[1].item()]
    manual = m + T.log(T.sum(T.exp(v - m.view(1, -1).expand(1, 6))))
    builtin = T.logsumexp(v, dim=1)
    g1 = T.autograd.grad(manual, v, retain_graph=True)[0]
    g2 = T.autograd.grad(builtin.sum(), v)[0]
    ties = T.tensor([[1.0, 3.0, 3.0, 0.0]], requires_grad=True)
    mx, idx = T.max(ties, 1)
    mx.sum().backward()
    return {
        "manual": manual,
        "builtin": builtin,
        "g1": g1,
        "g2": g2,
        "idx": idx,
        "tie_grad": ties.grad,
    }


# --- char RNN classification and generation --------------------------------------------------


_LETTERS = "abcdefg"


def _line_to_tensor(T: Any, line: str) -> Any:
    t = T.zeros(len(line), 1, len(_LETTERS))
    for li, letter in enumerate(line):
        t[li][0][_LETTERS.find(letter)] = 1
    return t


@program()
def prog_tut_md_char_rnn_classifier_nn_rnn(T: Any) -> Any:
    nn = T.nn

    class CharRNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.rnn = nn.RNN(len(_LETTERS), 5)
            self.h2o = nn.Linear(5, 3)
            self.softmax = nn.LogSoftmax(dim=1)

        def forward(self, line_tensor: Any) -> Any:
            _rnn_out, hidden = self.rnn(line_tensor)
            return self.softmax(self.h2o(hidden[0]))

    rnn = _seeded(T, CharRNN(), 17)
    crit = nn.NLLLoss()
    opt = T.optim.SGD(rnn.parameters(), lr=0.15)
    data = [("abc", 0), ("gfe", 1), ("dad", 2), ("cab", 0)]
    losses = []
    rnn.train()
    for line, cat in data:
        out = rnn(_line_to_tensor(T, line))
        loss = crit(out, T.tensor([cat]))
        loss.backward()
        T.nn.utils.clip_grad_norm_(rnn.parameters(), 3)
        opt.step()
        opt.zero_grad()
        losses.append(loss.item())
    rnn.eval()
    with T.no_grad():
        out = rnn(_line_to_tensor(T, "bead"))
        top_n, top_i = out.topk(1)
    return {
        "losses": losses,
        "out": out,
        "top": (top_n, top_i, top_i[0].item()),
        "params": _params(rnn),
    }


@program()
def prog_tut_md_char_rnn_hand_written_cell(T: Any) -> Any:
    nn = T.nn

    class RNN(nn.Module):
        def __init__(self, input_size: int, hidden_size: int, output_size: int) -> None:
            super().__init__()
            self.hidden_size = hidden_size
            self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
            self.i2o = nn.Linear(input_size + hidden_size, output_size)
            self.softmax = nn.LogSoftmax(dim=1)

        def forward(self, input: Any, hidden: Any) -> Any:
            combined = T.cat((input, hidden), 1)
            hidden = self.i2h(combined)
            output = self.softmax(self.i2o(combined))
            return output, hidden

        def initHidden(self) -> Any:
            return T.zeros(1, self.hidden_size)

    rnn = _seeded(T, RNN(len(_LETTERS), 4, 3), 18)
    criterion = nn.NLLLoss()
    lr = 0.05
    losses = []
    for line, cat in [("fab", 2), ("gg", 0), ("cde", 1)]:
        line_tensor = _line_to_tensor(T, line)
        hidden = rnn.initHidden()
        rnn.zero_grad()
        for i in range(line_tensor.size()[0]):
            output, hidden = rnn(line_tensor[i], hidden)
        loss = criterion(output, T.tensor([cat], dtype=T.long))
        loss.backward()
        for p in rnn.parameters():
            p.data.add_(p.grad.data, alpha=-lr)
        losses.append(loss)
    return {
        "losses": losses,
        "hidden": hidden,
        "hidden_fn": hidden.grad_fn,
        "grads": _grads(rnn),
        "params": _params(rnn),
    }


@program()
def prog_tut_md_char_rnn_confusion_matrix_no_grad(T: Any) -> Any:
    rnn = _seeded(T, T.nn.RNN(len(_LETTERS), 4, nonlinearity="relu"), 19)
    head = _seeded(T, T.nn.Linear(4, 3), 20)
    confusion = T.zeros(3, 3)
    lines = [("abc", 0), ("bcd", 1), ("gfa", 2), ("eee", 1), ("dcb", 0)]
    with T.no_grad():
        for line, cat in lines:
            _, h = rnn(_line_to_tensor(T, line))
            out = T.log_softmax(head(h[0]), dim=1)
            guess = out.topk(1)[1][0].item()
            confusion[cat][guess] += 1
    norm = confusion / confusion.sum(1, keepdim=True)
    return {"confusion": confusion, "norm": norm, "rg": out.requires_grad, "fn": out.grad_fn}


@program()
def prog_tut_md_char_rnn_generation_with_dropout(T: Any) -> Any:
    nn = T.nn
    NL, NC, H = len(_LETTERS) + 1, 2, 4

    class GenRNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.i2h = nn.Linear(NC + NL + H, H)
            self.i2o = nn.Linear(NC + NL + H, NL)
            self.o2o = nn.Linear(H + NL, NL)
            self.dropout = nn.Dropout(0.1)
            self.softmax = nn.LogSoftmax(dim=1)

        def forward(self, category: Any, input: Any, hidden: Any) -> Any:
            input_combined = T.cat((category, input, hidden), 1)
            hidden = self.i2h(input_combined)
            output = self.i2o(input_combined)
            output_combined = T.cat((hidden, output), 1)
            output = self.o2o(output_combined)
            output = self.dropout(output)
            output = self.softmax(output)
            return output, hidden

    def input_tensor(line: str) -> Any:
        t = T.zeros(len(line), 1, NL)
        for li in range(len(line)):
            t[li][0][_LETTERS.find(line[li])] = 1
        return t

    def target_tensor(line: str) -> Any:
        idx = [_LETTERS.find(line[li]) for li in range(1, len(line))]
        idx.append(NL - 1)  # EOS
        return T.LongTensor(idx)

    T.manual_seed(0)
    rnn = _seeded(T, GenRNN(), 21)
    criterion = nn.NLLLoss()
    losses = []
    for line, c in [("abca", 0), ("gfd", 1)]:
        category = T.zeros(1, NC)
        category[0][c] = 1
        inp = input_tensor(line)
        tgt = target_tensor(line).unsqueeze_(-1)
        hidden = T.zeros(1, H)
        rnn.zero_grad()
        loss = T.Tensor([0])
        for i in range(inp.size(0)):
            output, hidden = rnn(category, inp[i], hidden)
            loss += criterion(output, tgt[i])
        loss.backward()
        for p in rnn.parameters():
            p.data.add_(p.grad.data, alpha=-0.05)
        losses.append(loss.item() / inp.size(0))
    rnn.eval()
    with T.no_grad():
        category = T.zeros(1, NC)
        category[0][0] = 1
        inp = input_tensor("a")
        hidden = T.zeros(1, H)
        name = "a"
        for _ in range(5):
            output, hidden = rnn(category, inp[0], hidden)
            _topv, topi = output.topk(1)
            topi = topi[0][0]
            if topi == NL - 1:
                break
            name += _LETTERS[topi]
            inp = input_tensor(_LETTERS[topi])
    return {"losses": losses, "name": name, "grads": _grads(rnn), "loss_fn": loss.grad_fn}


# --- seq2seq translation: GRU encoder, Bahdanau attention decoder ------------------------------


def _seq2seq(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    H, V_IN, V_OUT, SOS = 4, 7, 6, 0

    class EncoderRNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embedding = nn.Embedding(V_IN, H)
            self.gru = nn.GRU(H, H, batch_first=True)
            self.dropout = nn.Dropout(0.1)

        def forward(self, input: Any) -> Any:
            embedded = self.dropout(self.embedding(input))
            return self.gru(embedded)

    class BahdanauAttention(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.Wa = nn.Linear(H, H)
            self.Ua = nn.Linear(H, H)
            self.Va = nn.Linear(H, 1)

        def forward(self, query: Any, keys: Any) -> Any:
            scores = self.Va(T.tanh(self.Wa(query) + self.Ua(keys)))
            scores = scores.squeeze(2).unsqueeze(1)
            weights = F.softmax(scores, dim=-1)
            return T.bmm(weights, keys), weights

    class AttnDecoderRNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embedding = nn.Embedding(V_OUT, H)
            self.attention = BahdanauAttention()
            self.gru = nn.GRU(2 * H, H, batch_first=True)
            self.out = nn.Linear(H, V_OUT)
            self.dropout = nn.Dropout(0.1)

        def forward(
            self, enc_out: Any, enc_hidden: Any, target: Any = None, max_len: int = 4
        ) -> Any:
            batch_size = enc_out.size(0)
            dec_input = T.empty(batch_size, 1, dtype=T.long).fill_(SOS)
            dec_hidden = enc_hidden
            outs, attns = [], []
            for i in range(max_len):
                embedded = self.dropout(self.embedding(dec_input))
                query = dec_hidden.permute(1, 0, 2)
                context, w = self.attention(query, enc_out)
                out, dec_hidden = self.gru(T.cat((embedded, context), dim=2), dec_hidden)
                out = self.out(out)
                outs.append(out)
                attns.append(w)
                if target is not None:
                    dec_input = target[:, i].unsqueeze(1)  # teacher forcing
                else:
                    _, topi = out.topk(1)
                    dec_input = topi.squeeze(-1).detach()
            outs = F.log_softmax(T.cat(outs, dim=1), dim=-1)
            return outs, dec_hidden, T.cat(attns, dim=1)

    T.manual_seed(3)
    return _seeded(T, EncoderRNN(), 22), _seeded(T, AttnDecoderRNN(), 23)


@program()
def prog_tut_md_seq2seq_teacher_forcing_two_adams(T: Any) -> Any:
    enc, dec = _seq2seq(T)
    eo = T.optim.Adam(enc.parameters(), lr=0.01)
    do = T.optim.Adam(dec.parameters(), lr=0.01)
    crit = T.nn.NLLLoss()
    src = T.tensor([[1, 2, 3, 6, 4], [5, 5, 2, 1, 0]])
    tgt = T.tensor([[2, 3, 1, 5], [4, 4, 1, 0]])
    losses = []
    for _ in range(2):
        eo.zero_grad()
        do.zero_grad()
        enc_out, enc_hidden = enc(src)
        dec_out, _, attn = dec(enc_out, enc_hidden, tgt)
        loss = crit(dec_out.view(-1, dec_out.size(-1)), tgt.view(-1))
        loss.backward()
        eo.step()
        do.step()
        losses.append(loss)
    return {
        "losses": losses,
        "attn": attn,
        "attn_rows": attn.sum(-1),
        "enc_grads": _grads(enc),
        "dec_grads": _grads(dec),
        "dec_state": _ostate(do),
    }


@program()
def prog_tut_md_seq2seq_greedy_eval_decoding(T: Any) -> Any:
    enc, dec = _seq2seq(T)
    enc.eval()
    dec.eval()
    src = T.tensor([[3, 1, 4, 1, 5]])
    with T.no_grad():
        enc_out, enc_hidden = enc(src)
        dec_out, dec_hidden, attn = dec(enc_out, enc_hidden)
        _, topi = dec_out.topk(1)
        ids = topi.squeeze()
    return {
        "out": dec_out,
        "ids": ids,
        "attn": attn,
        "hid": dec_hidden,
        "rg": dec_out.requires_grad,
    }


@program()
def prog_tut_md_seq2seq_free_running_backward(T: Any) -> Any:
    # without teacher forcing the decoder feeds back detached argmax ids: gradients still flow
    # through the hidden state and the attention
    enc, dec = _seq2seq(T)
    src = T.tensor([[1, 2, 3], [4, 5, 6]])
    enc_out, enc_hidden = enc(src)
    dec_out, _, attn = dec(enc_out, enc_hidden, None, max_len=3)
    loss = T.nn.functional.nll_loss(dec_out.reshape(-1, 6), T.tensor([1, 2, 0, 3, 3, 0]))
    loss.backward()
    return {"loss": loss, "attn": attn, "enc": _grads(enc), "dec": _grads(dec)}


# --- transformers: language model, nn.Transformer translation, MultiheadAttention -----------


def _pos_encoding(T: Any, d_model: int, dropout: float, max_len: int = 16) -> Any:
    nn = T.nn

    class PositionalEncoding(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.dropout = nn.Dropout(p=dropout)
            position = T.arange(max_len).unsqueeze(1)
            div_term = T.exp(T.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
            pe = T.zeros(max_len, 1, d_model)
            pe[:, 0, 0::2] = T.sin(position * div_term)
            pe[:, 0, 1::2] = T.cos(position * div_term)
            self.register_buffer("pe", pe)

        def forward(self, x: Any) -> Any:
            return self.dropout(x + self.pe[: x.size(0)])

    return PositionalEncoding()


def _transformer_lm(T: Any, dropout: float = 0.0, **layer_kw: Any) -> Any:
    nn = T.nn
    NTOK, D = 9, 4

    class TransformerModel(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.pos_encoder = _pos_encoding(T, D, dropout)
            layer = nn.TransformerEncoderLayer(D, 2, 6, dropout, **layer_kw)
            self.transformer_encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.embedding = nn.Embedding(NTOK, D)
            self.linear = nn.Linear(D, NTOK)

        def forward(self, src: Any, src_mask: Any = None) -> Any:
            src = self.embedding(src) * math.sqrt(D)
            src = self.pos_encoder(src)
            if src_mask is None:
                src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
            return self.linear(self.transformer_encoder(src, src_mask))

    return _seeded(T, TransformerModel(), 30)


def _batchify(T: Any, data: Any, bsz: int) -> Any:
    seq_len = data.size(0) // bsz
    data = data[: seq_len * bsz]
    return data.view(bsz, seq_len).t().contiguous()


@program()
def prog_tut_md_transformer_lm_trains_with_clip_and_steplr(T: Any) -> Any:
    model = _transformer_lm(T)
    train_data = _batchify(T, T.tensor(_ints(26, 9, seed=31)), 2)
    bptt = 4
    crit = T.nn.CrossEntropyLoss()
    opt = T.optim.SGD(model.parameters(), lr=0.5)
    sched = T.optim.lr_scheduler.StepLR(opt, 1.0, gamma=0.95)
    model.train()
    losses, norms = [], []
    for i in range(0, train_data.size(0) - 1, bptt):
        seq_len = min(bptt, len(train_data) - 1 - i)
        data = train_data[i : i + seq_len]
        targets = train_data[i + 1 : i + 1 + seq_len].reshape(-1)
        output = model(data)
        loss = crit(output.view(-1, 9), targets)
        opt.zero_grad()
        loss.backward()
        norms.append(T.nn.utils.clip_grad_norm_(model.parameters(), 0.5))
        opt.step()
        losses.append(loss)
    sched.step()
    model.eval()
    total = 0.0
    with T.no_grad():
        for i in range(0, train_data.size(0) - 1, bptt):
            seq_len = min(bptt, len(train_data) - 1 - i)
            out = model(train_data[i : i + seq_len])
            tg = train_data[i + 1 : i + 1 + seq_len].reshape(-1)
            total += seq_len * crit(out.view(-1, 9), tg).item()
    return {
        "shape": tuple(train_data.shape),
        "losses": losses,
        "norms": norms,
        "eval": total,
        "lr": sched.get_last_lr(),
        "grads": _grads(model),
        "pe": model.pos_encoder.pe,
        "buffers": [n for n, _ in model.named_buffers()],
    }


@program()
def prog_tut_md_transformer_lm_dropout_train_vs_eval(T: Any) -> Any:
    T.manual_seed(0)
    model = _transformer_lm(T, dropout=0.2)
    src = T.tensor([[1, 2], [3, 4], [5, 6]])
    model.train()
    T.manual_seed(1)
    a = model(src)
    T.manual_seed(1)
    b = model(src)
    a.sum().backward()
    model.eval()
    c = model(src)
    d = model(src)
    return {
        "a": a,
        "same_seed": T.equal(a, b),
        "c": c,
        "eval_same": T.equal(c, d),
        "grads": _grads(model),
    }


@program()
def prog_tut_md_square_subsequent_mask_forms(T: Any) -> Any:
    m = T.nn.Transformer.generate_square_subsequent_mask(4)
    tri = T.triu(T.ones(4, 4) == 1).transpose(0, 1)
    manual = tri.float().masked_fill(tri == 0, float("-inf")).masked_fill(tri == 1, 0.0)
    bool_mask = T.triu(T.ones(4, 4, dtype=T.bool), diagonal=1)
    return {"m": m, "manual": manual, "eq": T.equal(m, manual), "bool": bool_mask, "dt": m.dtype}


@program()
def prog_tut_md_transformer_encoder_bool_vs_float_mask(T: Any) -> Any:
    layer = _seeded(T, T.nn.TransformerEncoderLayer(4, 2, 8, 0.0, batch_first=True), 32)
    x = T.tensor(_data(2, 3, 4, seed=33), requires_grad=True)
    fmask = T.nn.Transformer.generate_square_subsequent_mask(3)
    bmask = T.triu(T.ones(3, 3, dtype=T.bool), diagonal=1)
    y1 = layer(x, src_mask=fmask)
    y2 = layer(x, src_mask=bmask, is_causal=True)
    (y1 * y2.detach()).sum().backward()
    return {"y1": y1, "y2": y2, "x.grad": x.grad, "grads": _grads(layer), "fn": y1.grad_fn}


@program()
def prog_tut_md_transformer_encoder_norm_first_gelu(T: Any) -> Any:
    layer = T.nn.TransformerEncoderLayer(4, 1, 5, 0.0, activation="gelu", norm_first=True)
    enc = _seeded(
        T, T.nn.TransformerEncoder(layer, 2, norm=T.nn.LayerNorm(4), enable_nested_tensor=False), 34
    )
    x = T.tensor(_data(3, 2, 4, seed=35))
    opt = T.optim.AdamW(enc.parameters(), lr=0.01)
    losses = []
    for _ in range(2):
        opt.zero_grad()
        loss = enc(x).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss)
    return {"losses": losses, "grads": _grads(enc), "state": _ostate(opt)}


def _seq2seq_transformer(T: Any) -> Any:
    nn = T.nn
    D, SRC_V, TGT_V = 4, 7, 8

    class TokenEmbedding(nn.Module):
        def __init__(self, vocab: int) -> None:
            super().__init__()
            self.embedding = nn.Embedding(vocab, D)

        def forward(self, tokens: Any) -> Any:
            return self.embedding(tokens.long()) * math.sqrt(D)

    class Seq2SeqTransformer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = nn.Transformer(
                d_model=D,
                nhead=2,
                num_encoder_layers=1,
                num_decoder_layers=1,
                dim_feedforward=6,
                dropout=0.0,
            )
            self.generator = nn.Linear(D, TGT_V)
            self.src_tok_emb = TokenEmbedding(SRC_V)
            self.tgt_tok_emb = TokenEmbedding(TGT_V)
            self.positional_encoding = _pos_encoding(T, D, 0.0)

        def forward(self, src, trg, src_mask, tgt_mask, src_pad, tgt_pad, mem_pad):
            src_emb = self.positional_encoding(self.src_tok_emb(src))
            tgt_emb = self.positional_encoding(self.tgt_tok_emb(trg))
            outs = self.transformer(
                src_emb, tgt_emb, src_mask, tgt_mask, None, src_pad, tgt_pad, mem_pad
            )
            return self.generator(outs)

        def encode(self, src: Any, src_mask: Any) -> Any:
            return self.transformer.encoder(
                self.positional_encoding(self.src_tok_emb(src)), src_mask
            )

        def decode(self, tgt: Any, memory: Any, tgt_mask: Any) -> Any:
            return self.transformer.decoder(
                self.positional_encoding(self.tgt_tok_emb(tgt)), memory, tgt_mask
            )

    return _seeded(T, Seq2SeqTransformer(), 36)


_PAD, _BOS, _EOS = 1, 2, 3


def _create_mask(T: Any, src: Any, tgt: Any) -> Any:
    src_seq_len, tgt_seq_len = src.shape[0], tgt.shape[0]
    mask = (T.triu(T.ones((tgt_seq_len, tgt_seq_len))) == 1).transpose(0, 1)
    tgt_mask = mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, 0.0)
    src_mask = T.zeros((src_seq_len, src_seq_len)).type(T.bool)
    return src_mask, tgt_mask, (src == _PAD).transpose(0, 1), (tgt == _PAD).transpose(0, 1)


@program()
def prog_tut_md_translation_transformer_padding_masks_train(T: Any) -> Any:
    model = _seq2seq_transformer(T)
    opt = T.optim.Adam(model.parameters(), lr=0.001, betas=(0.9, 0.98), eps=1e-9)
    loss_fn = T.nn.CrossEntropyLoss(ignore_index=_PAD)
    src = T.tensor([[2, 2], [4, 5], [6, 3], [3, 1]])
    tgt = T.tensor([[2, 2], [5, 7], [4, 3], [3, 1], [1, 1]])
    losses = []
    for _ in range(2):
        tgt_input = tgt[:-1, :]
        src_mask, tgt_mask, src_pad, tgt_pad = _create_mask(T, src, tgt_input)
        logits = model(src, tgt_input, src_mask, tgt_mask, src_pad, tgt_pad, src_pad)
        opt.zero_grad()
        tgt_out = tgt[1:, :]
        loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
        loss.backward()
        opt.step()
        losses.append(loss)
    return {"logits": logits, "losses": losses, "grads": _grads(model), "state": _ostate(opt)}


@program()
def prog_tut_md_translation_transformer_greedy_decode(T: Any) -> Any:
    model = _seq2seq_transformer(T)
    model.eval()
    src = T.tensor([[2], [4], [6], [5], [3]])
    num_tokens = src.shape[0]
    src_mask = T.zeros(num_tokens, num_tokens).type(T.bool)
    steps = []
    with T.no_grad():
        memory = model.encode(src, src_mask)
        ys = T.ones(1, 1).fill_(_BOS).type(T.long)
        for _ in range(num_tokens + 2):
            tgt_mask = T.nn.Transformer.generate_square_subsequent_mask(ys.size(0)).type(T.bool)
            out = model.decode(ys, memory, tgt_mask)
            out = out.transpose(0, 1)
            prob = model.generator(out[:, -1])
            _, next_word = T.max(prob, dim=1)
            next_word = next_word.item()
            steps.append(prob)
            ys = T.cat([ys, T.ones(1, 1).type_as(src.data).fill_(next_word)], dim=0)
            if next_word == _EOS:
                break
    return {"memory": memory, "ys": ys.flatten(), "steps": steps}


@program()
def prog_tut_md_multihead_attention_key_padding_mask(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 37)
    q = T.tensor(_data(2, 3, 4, seed=38), requires_grad=True)
    kv = T.tensor(_data(2, 5, 4, seed=39), requires_grad=True)
    kpm = T.tensor([[False, False, False, True, True], [False] * 5])
    out, w = mha(q, kv, kv, key_padding_mask=kpm)
    out2, w2 = mha(q, kv, kv, key_padding_mask=kpm, average_attn_weights=False)
    (out.sum() + out2.mean() + w2[:, 1].pow(2).sum()).backward()
    return {
        "out": out,
        "w": w,
        "w2": w2,
        "masked_zero": w[0, :, 3:],
        "q.grad": q.grad,
        "kv.grad": kv.grad,
        "grads": _grads(mha),
    }


@program()
def prog_tut_md_multihead_attention_float_key_padding_and_attn_mask(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 1, kdim=3, vdim=2), 40)
    q = T.tensor(_data(3, 1, 4, seed=41))
    k = T.tensor(_data(4, 1, 3, seed=42), requires_grad=True)
    v = T.tensor(_data(4, 1, 2, seed=43), requires_grad=True)
    kpm = T.tensor([[0.0, 0.0, -1.5, float("-inf")]])
    am = T.tensor(_data(3, 4, seed=44))
    out, w = mha(q, k, v, key_padding_mask=kpm, attn_mask=am)
    out.sum().backward()
    return {"out": out, "w": w, "k.grad": k.grad, "v.grad": v.grad, "grads": _grads(mha)}


@program()
def prog_tut_md_transformer_encoder_eval_padding_mask(T: Any) -> Any:
    layer = T.nn.TransformerEncoderLayer(4, 2, 6, 0.1, batch_first=True)
    enc = _seeded(T, T.nn.TransformerEncoder(layer, 1, enable_nested_tensor=False), 45)
    x = T.tensor(_data(2, 4, 4, seed=46))
    kpm = T.tensor([[False, False, True, True], [False, False, False, False]])
    enc.eval()
    with T.no_grad():
        y = enc(x, src_key_padding_mask=kpm)
    y_grad = enc(x, src_key_padding_mask=kpm)
    return {"y": y, "y_grad": y_grad, "valid_same": T.allclose(y[:, :2], y_grad[:, :2], atol=1e-6)}


# --- DCGAN: ConvTranspose2d generator, conv discriminator, two Adams ------------------------


def _dcgan(T: Any) -> Any:
    nn = T.nn
    nz, ngf, ndf, nc = 3, 2, 2, 1

    class Generator(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.main = nn.Sequential(
                nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
                nn.BatchNorm2d(ngf * 2),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ngf),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
                nn.Tanh(),
            )

        def forward(self, input: Any) -> Any:
            return self.main(input)

    class Discriminator(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.main = nn.Sequential(
                nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ndf * 2),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
                nn.Sigmoid(),
            )

        def forward(self, input: Any) -> Any:
            return self.main(input)

    def weights_init(m: Any) -> None:
        classname = m.__class__.__name__
        if classname.find("Conv") != -1:
            nn.init.normal_(m.weight.data, 0.0, 0.02)
        elif classname.find("BatchNorm") != -1:
            nn.init.normal_(m.weight.data, 1.0, 0.02)
            nn.init.constant_(m.bias.data, 0)

    T.manual_seed(999)
    netG = Generator()
    netG.apply(weights_init)
    netD = Discriminator()
    netD.apply(weights_init)
    return netG, netD, nz


@program()
def prog_tut_md_dcgan_training_iterations(T: Any) -> Any:
    netG, netD, nz = _dcgan(T)
    criterion = T.nn.BCELoss()
    T.manual_seed(5)
    fixed_noise = T.randn(3, nz, 1, 1)
    real_label, fake_label = 1.0, 0.0
    optD = T.optim.Adam(netD.parameters(), lr=0.0002 * 50, betas=(0.5, 0.999))
    optG = T.optim.Adam(netG.parameters(), lr=0.0002 * 50, betas=(0.5, 0.999))
    real = T.tanh(T.tensor(_data(4, 1, 16, 16, seed=50)))
    log = []
    for _ in range(2):
        netD.zero_grad()
        b_size = real.size(0)
        label = T.full((b_size,), real_label, dtype=T.float)
        output = netD(real).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()
        noise = T.randn(b_size, nz, 1, 1)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optD.step()
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optG.step()
        log.append((errD, errG, D_x, D_G_z1, D_G_z2))
    with T.no_grad():
        fake = netG(fixed_noise).detach()
    return {
        "log": log,
        "fake": fake,
        "G": _grads(netG),
        "D": _grads(netD),
        "bn": dict(netG.main[1].state_dict()),
        "stateG": _ostate(optG),
    }


@program()
def prog_tut_md_dcgan_init_and_shapes(T: Any) -> Any:
    netG, netD, nz = _dcgan(T)
    T.manual_seed(1)
    z = T.randn(2, nz, 1, 1)
    shapes = []
    h = z
    for m in netG.main:
        h = m(h)
        shapes.append((type(m).__name__, tuple(h.shape)))
    return {
        "shapes": shapes,
        "convG0": netG.main[0].weight,
        "bnD": netD.main[3].weight,
        "bnD_bias": netD.main[3].bias,
        "n": sum(p.numel() for p in netG.parameters()),
        "out": h,
        "fn": h.grad_fn,
    }


@program()
def prog_tut_md_leaky_relu_inplace_after_conv_and_bn_eval(T: Any) -> Any:
    _, netD, _ = _dcgan(T)
    x = T.tensor(_data(2, 1, 16, 16, seed=51), requires_grad=True)
    y = netD(x)
    y.sum().backward()
    g_train = x.grad.clone()
    rm = netD.main[3].running_mean.clone()
    netD.eval()
    x.grad = None
    y2 = netD(x)
    y2.sum().backward()
    return {
        "y": y,
        "y2": y2,
        "g_train": g_train,
        "g_eval": x.grad,
        "rm": rm,
        "nbt": netD.main[3].num_batches_tracked,
        "rm_after_eval": netD.main[3].running_mean,
        "fn": [type(y.grad_fn).__name__, y.grad_fn.next_functions[0][0]],
    }


# --- DQN: policy/target nets, replay batch, Huber loss, AdamW amsgrad, soft update -----------


def _dqn(T: Any, seed: int) -> Any:
    nn = T.nn
    F = T.nn.functional

    class DQN(nn.Module):
        def __init__(self, n_obs: int, n_actions: int) -> None:
            super().__init__()
            self.layer1 = nn.Linear(n_obs, 8)
            self.layer2 = nn.Linear(8, 8)
            self.layer3 = nn.Linear(8, n_actions)

        def forward(self, x: Any) -> Any:
            x = F.relu(self.layer1(x))
            x = F.relu(self.layer2(x))
            return self.layer3(x)

    return _seeded(T, DQN(4, 2), seed)


Transition = collections.namedtuple("Transition", ("state", "action", "next_state", "reward"))


@program()
def prog_tut_md_dqn_optimize_model_and_soft_update(T: Any) -> Any:
    policy_net = _dqn(T, 60)
    target_net = _dqn(T, 61)
    target_net.load_state_dict(policy_net.state_dict())
    optimizer = T.optim.AdamW(policy_net.parameters(), lr=1e-2, amsgrad=True)
    GAMMA, TAU = 0.99, 0.005
    rng = np.random.default_rng(62)
    memory = []
    for i in range(8):
        s = T.tensor(rng.standard_normal((1, 4)).astype(np.float32))
        nxt = None if i % 3 == 2 else T.tensor(rng.standard_normal((1, 4)).astype(np.float32))
        memory.append(
            Transition(s, T.tensor([[int(rng.integers(0, 2))]]), nxt, T.tensor([float(i % 2)]))
        )
    losses = []
    for step in range(3):
        transitions = [memory[(step * 3 + j) % 8] for j in range(5)]
        batch = Transition(*zip(*transitions, strict=True))
        non_final_mask = T.tensor(tuple(s is not None for s in batch.next_state), dtype=T.bool)
        non_final_next_states = T.cat([s for s in batch.next_state if s is not None])
        state_batch = T.cat(batch.state)
        action_batch = T.cat(batch.action)
        reward_batch = T.cat(batch.reward)
        state_action_values = policy_net(state_batch).gather(1, action_batch)
        next_state_values = T.zeros(5)
        with T.no_grad():
            next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
        expected = (next_state_values * GAMMA) + reward_batch
        criterion = T.nn.SmoothL1Loss()
        loss = criterion(state_action_values, expected.unsqueeze(1))
        optimizer.zero_grad()
        loss.backward()
        T.nn.utils.clip_grad_value_(policy_net.parameters(), 0.05)
        optimizer.step()
        target_sd = target_net.state_dict()
        policy_sd = policy_net.state_dict()
        for key in policy_sd:
            target_sd[key] = policy_sd[key] * TAU + target_sd[key] * (1 - TAU)
        target_net.load_state_dict(target_sd)
        losses.append(loss)
    with T.no_grad():
        action = policy_net(memory[0].state).max(1).indices.view(1, 1)
    return {
        "losses": losses,
        "sav_fn": state_action_values.grad_fn,
        "expected": expected,
        "grads": _grads(policy_net),
        "state": _ostate(optimizer),
        "target": dict(target_net.state_dict()),
        "action": action,
    }


@program()
def prog_tut_md_dqn_gather_max_and_huber_beta(T: Any) -> Any:
    q = T.tensor(_data(4, 3, seed=63), requires_grad=True)
    a = T.tensor([[0], [2], [2], [1]])
    sav = q.gather(1, a)
    mx = q.max(1)
    target = T.tensor(_data(4, 1, seed=64)) * 3
    l1 = T.nn.SmoothL1Loss(beta=0.5)(sav, target)
    l2 = T.nn.HuberLoss(delta=0.7, reduction="sum")(sav, target)
    l3 = T.nn.functional.smooth_l1_loss(sav, target, reduction="none", beta=0.0)
    (l1 + l2 + l3.sum() + mx.values.sum()).backward()
    return {
        "sav": sav,
        "mx": mx,
        "l1": l1,
        "l2": l2,
        "l3": l3,
        "grad": q.grad,
        "mxfn": mx.values.grad_fn,
    }


@program()
def prog_tut_md_clip_grad_value_and_norm_returns(T: Any) -> Any:
    net = _dqn(T, 65)
    x = T.tensor(_data(6, 4, seed=66)) * 5
    net(x).pow(3).sum().backward()
    before = {n: p.grad.clone() for n, p in net.named_parameters()}
    r1 = T.nn.utils.clip_grad_value_(net.parameters(), 0.3)
    mid = {n: p.grad.clone() for n, p in net.named_parameters()}
    total = T.nn.utils.clip_grad_norm_(net.parameters(), 1.0, norm_type=2.0)
    inf = T.nn.utils.clip_grad_norm_(net.parameters(), 0.5, norm_type="inf")
    return {
        "before": before,
        "r1": r1,
        "mid": mid,
        "total": total,
        "inf": inf,
        "after": _grads(net),
    }


# --- neural style transfer: gram matrices, loss modules, LBFGS on the image ------------------


def _gram_matrix(T: Any, input: Any) -> Any:
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = T.mm(features, features.t())
    return G.div(a * b * c * d)


def _style_model(T: Any, style_img: Any, content_img: Any) -> Any:
    nn = T.nn
    F = T.nn.functional

    class ContentLoss(nn.Module):
        def __init__(self, target: Any) -> None:
            super().__init__()
            self.target = target.detach()

        def forward(self, input: Any) -> Any:
            self.loss = F.mse_loss(input, self.target)
            return input

    class StyleLoss(nn.Module):
        def __init__(self, target_feature: Any) -> None:
            super().__init__()
            self.target = _gram_matrix(T, target_feature).detach()

        def forward(self, input: Any) -> Any:
            self.loss = F.mse_loss(_gram_matrix(T, input), self.target)
            return input

    class Normalization(nn.Module):
        def __init__(self, mean: Any, std: Any) -> None:
            super().__init__()
            self.mean = T.tensor(mean).view(-1, 1, 1)
            self.std = T.tensor(std).view(-1, 1, 1)

        def forward(self, img: Any) -> Any:
            return (img - self.mean) / self.std

    cnn = nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.ReLU(inplace=True),
        nn.Conv2d(4, 4, 3, padding=1),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
        nn.Conv2d(4, 4, 3, padding=1),
        nn.ReLU(inplace=True),
    )
    _seeded(T, cnn, 70)
    normalization = Normalization([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
    content_losses, style_losses = [], []
    model = nn.Sequential(normalization)
    i = 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = f"conv_{i}"
        elif isinstance(layer, nn.ReLU):
            name = f"relu_{i}"
            layer = nn.ReLU(inplace=False)
        else:
            name = f"pool_{i}"
        model.add_module(name, layer)
        if name == "conv_2":
            target = model(content_img).detach()
            cl = ContentLoss(target)
            model.add_module(f"content_loss_{i}", cl)
            content_losses.append(cl)
        if name in ("conv_1", "conv_2", "conv_3"):
            target_feature = model(style_img).detach()
            sl = StyleLoss(target_feature)
            model.add_module(f"style_loss_{i}", sl)
            style_losses.append(sl)
    for i in range(len(model) - 1, -1, -1):
        if isinstance(model[i], (ContentLoss, StyleLoss)):
            break
    model = model[: (i + 1)]
    return model, style_losses, content_losses


@program()
def prog_tut_md_neural_style_lbfgs_closure(T: Any) -> Any:
    style_img = T.tensor(np.random.default_rng(71).uniform(0, 1, (1, 3, 6, 6)).astype(np.float32))
    content_img = T.tensor(np.random.default_rng(72).uniform(0, 1, (1, 3, 6, 6)).astype(np.float32))
    input_img = content_img.clone()
    model, style_losses, content_losses = _style_model(T, style_img, content_img)
    input_img.requires_grad_(True)
    model.eval()
    model.requires_grad_(False)
    optimizer = T.optim.LBFGS([input_img], max_iter=5)
    run = [0]
    trace = []

    def closure() -> Any:
        with T.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * 1000
        content_score = sum(cl.loss for cl in content_losses)
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        trace.append((style_score.item(), content_score.item()))
        return style_score + content_score

    returned = [optimizer.step(closure) for _ in range(2)]
    with T.no_grad():
        input_img.clamp_(0, 1)
    st = optimizer.state[optimizer.param_groups[0]["params"][0]]
    return {
        "names": [n for n, _ in model.named_children()],
        "returned": returned,
        "runs": run[0],
        "trace": trace,
        "img": input_img,
        "n_iter": st["n_iter"],
        "func_evals": st["func_evals"],
        "param_rg": [p.requires_grad for p in model.parameters()],
    }


@program()
def prog_tut_md_gram_matrix_grad_and_style_loss(T: Any) -> Any:
    feat = T.tensor(_data(2, 3, 2, 2, seed=73), requires_grad=True)
    G = _gram_matrix(T, feat)
    target = _gram_matrix(T, T.tensor(_data(2, 3, 2, 2, seed=74)))
    loss = T.nn.functional.mse_loss(G, target)
    loss.backward()
    # symmetric up to rounding: whether BLAS's gemm gives an exactly symmetric F F^T depends on
    # the library and the CPU (MKL on AVX-512 does not, numpy's syrk path does)
    sym = bool((G - G.t()).abs().max() < 1e-6)
    return {"G": G, "sym": sym, "loss": loss, "grad": feat.grad, "fn": G.grad_fn}


@program()
def prog_tut_md_lbfgs_strong_wolfe_history(T: Any) -> Any:
    x = T.tensor([1.5, -0.5, 2.0], requires_grad=True)
    A = T.tensor([[3.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.0]])
    opt = T.optim.LBFGS([x], lr=1, max_iter=5, history_size=3, line_search_fn="strong_wolfe")
    calls = [0]

    def closure() -> Any:
        opt.zero_grad()
        loss = 0.5 * x @ A @ x + (x - 1).pow(4).sum()
        loss.backward()
        calls[0] += 1
        return loss

    out = [opt.step(closure) for _ in range(2)]
    st = opt.state[x]
    return {
        "x": x,
        "out": out,
        "calls": calls[0],
        "n_iter": st["n_iter"],
        "old_dirs": st["old_dirs"],
    }


# --- spatial transformer network: affine_grid + grid_sample ---------------------------------


def _stn(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(1, 3, kernel_size=3)
            self.conv2_drop = nn.Dropout2d()
            self.fc1 = nn.Linear(3 * 5 * 5, 4)
            self.localization = nn.Sequential(
                nn.Conv2d(1, 2, kernel_size=3),
                nn.MaxPool2d(2, stride=2),
                nn.ReLU(True),
            )
            self.fc_loc = nn.Sequential(nn.Linear(2 * 5 * 5, 6), nn.ReLU(True), nn.Linear(6, 3 * 2))

        def stn(self, x: Any) -> Any:
            xs = self.localization(x)
            xs = xs.view(-1, 2 * 5 * 5)
            theta = self.fc_loc(xs)
            theta = theta.view(-1, 2, 3)
            grid = F.affine_grid(theta, x.size(), align_corners=False)
            return F.grid_sample(x, grid, align_corners=False)

        def forward(self, x: Any) -> Any:
            x = self.stn(x)
            x = F.relu(F.max_pool2d(self.conv2_drop(self.conv1(x)), 2))
            x = x.view(-1, 3 * 5 * 5)
            x = F.dropout(x, training=self.training)
            return F.log_softmax(self.fc1(x), dim=1)

    model = _seeded(T, Net(), 80)
    with T.no_grad():
        model.fc_loc[2].weight.data.zero_()
        model.fc_loc[2].bias.data.copy_(T.tensor([1, 0, 0, 0, 1, 0], dtype=T.float))
        model.fc_loc[2].weight.add_(T.tensor(_data(6, 6, seed=81)) * 0.05)
    return model


@program()
def prog_tut_md_spatial_transformer_trains(T: Any) -> Any:
    model = _stn(T)
    opt = T.optim.SGD(model.parameters(), lr=0.05)
    x = T.tensor(_data(3, 1, 12, 12, seed=82))
    y = T.tensor([0, 3, 1])
    T.manual_seed(7)
    model.train()
    losses = []
    for _ in range(2):
        opt.zero_grad()
        output = model(x)
        loss = T.nn.functional.nll_loss(output, y)
        loss.backward()
        opt.step()
        losses.append(loss)
    model.eval()
    with T.no_grad():
        out = model(x)
        test_loss = T.nn.functional.nll_loss(out, y, reduction="sum").item()
        pred = out.max(1, keepdim=True)[1]
        correct = pred.eq(y.view_as(pred)).sum().item()
        warped = model.stn(x)
    return {
        "losses": losses,
        "grads": _grads(model),
        "test_loss": test_loss,
        "pred": pred,
        "correct": correct,
        "warped": warped,
    }


@program()
def prog_tut_md_affine_grid_sample_modes_grads(T: Any) -> Any:
    F = T.nn.functional
    theta = T.tensor(
        [[[0.9, -0.2, 0.1], [0.15, 1.1, -0.05]], [[1.2, 0.3, -0.3], [-0.1, 0.8, 0.2]]],
        requires_grad=True,
    )
    img = T.tensor(_data(2, 2, 5, 4, seed=83), requires_grad=True)
    out = {}
    for ac in (False, True):
        grid = F.affine_grid(theta, [2, 2, 3, 6], align_corners=ac)
        for mode in ("bilinear", "nearest"):
            for pad in ("zeros", "border", "reflection"):
                out[(ac, mode, pad)] = F.grid_sample(
                    img, grid, mode=mode, padding_mode=pad, align_corners=ac
                )
    total = sum(v.pow(2).sum() for v in out.values())
    gt, gi = T.autograd.grad(total, (theta, img))
    return {"out": out, "g_theta": gt, "g_img": gi, "grid_fn": grid.grad_fn}


@program()
def prog_tut_md_affine_grid_identity_and_errors(T: Any) -> Any:
    F = T.nn.functional
    ident = T.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    img = T.tensor(_data(1, 1, 3, 3, seed=84))
    grid = F.affine_grid(ident, img.size(), align_corners=True)
    same = F.grid_sample(img, grid, align_corners=True)
    bad_theta = raises(lambda: F.affine_grid(T.zeros(1, 3, 3), [1, 1, 3, 3], align_corners=False))
    bad_size = raises(lambda: F.affine_grid(ident, [2, 1, 3, 3], align_corners=False))
    bad_mode = raises(lambda: F.grid_sample(img, grid, mode="cubic", align_corners=True))
    return {
        "grid": grid,
        "same": same,
        "eq": T.allclose(same, img),
        "e": [bad_theta, bad_size, bad_mode],
    }


# --- CIFAR-10 classifier: conv, max_pool, flatten, CrossEntropyLoss, SGD momentum ------------


def _cifar_net(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(3, 4, 3)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(4, 6, 2)
            self.fc1 = nn.Linear(6 * 2 * 2, 8)
            self.fc2 = nn.Linear(8, 6)
            self.fc3 = nn.Linear(6, 3)

        def forward(self, x: Any) -> Any:
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = T.flatten(x, 1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)

    return _seeded(T, Net(), 90)


@program()
def prog_tut_md_cifar_classifier_train_and_accuracy(T: Any) -> Any:
    net = _cifar_net(T)
    criterion = T.nn.CrossEntropyLoss()
    optimizer = T.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    images = T.tensor(_data(12, 3, 12, 12, seed=91))
    labels = T.tensor(_ints(12, 3, seed=92))
    ds = T.utils.data.TensorDataset(images, labels)
    loader = T.utils.data.DataLoader(ds, batch_size=4, shuffle=False)
    running = []
    for _epoch in range(2):
        running_loss = 0.0
        for i, data in enumerate(loader, 0):
            inputs, lab = data
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, lab)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            if i % 2 == 1:
                running.append(running_loss / 2)
                running_loss = 0.0
    correct = 0
    total = 0
    correct_pred = dict.fromkeys("abc", 0)
    total_pred = dict.fromkeys("abc", 0)
    with T.no_grad():
        for inputs, lab in loader:
            outputs = net(inputs)
            _, predicted = T.max(outputs.data, 1)
            total += lab.size(0)
            correct += (predicted == lab).sum().item()
            for label, prediction in zip(lab, predicted, strict=True):
                if label == prediction:
                    correct_pred["abc"[label]] += 1
                total_pred["abc"[label]] += 1
    acc = {c: 100 * float(correct_pred[c]) / max(total_pred[c], 1) for c in "abc"}
    return {
        "running": running,
        "correct": correct,
        "total": total,
        "acc": acc,
        "grads": _grads(net),
        "state": _ostate(optimizer),
    }


@program()
def prog_tut_md_cifar_save_load_state_dict_predicts_same(T: Any) -> Any:
    net = _cifar_net(T)
    x = T.tensor(_data(2, 3, 12, 12, seed=93))
    buf = io.BytesIO()
    T.save(net.state_dict(), buf)
    buf.seek(0)
    net2 = _cifar_net(T)
    with T.no_grad():
        for p in net2.parameters():
            p.zero_()
    res = net2.load_state_dict(T.load(buf, weights_only=True))
    with T.no_grad():
        a, b = net(x), net2(x)
    return {
        "a": a,
        "eq": T.equal(a, b),
        "res": (res.missing_keys, res.unexpected_keys),
        "keys": list(net2.state_dict()),
    }


@program()
def prog_tut_md_cifar_multi_step_momentum_buffer_and_nesterov(T: Any) -> Any:
    net = _cifar_net(T)
    opt = T.optim.SGD(net.parameters(), lr=0.02, momentum=0.9, nesterov=True, weight_decay=5e-4)
    x = T.tensor(_data(4, 3, 12, 12, seed=94))
    y = T.tensor([0, 1, 2, 1])
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = T.nn.functional.cross_entropy(net(x), y, label_smoothing=0.1)
        loss.backward()
        opt.step()
        losses.append(loss)
    return {"losses": losses, "state": _ostate(opt), "fn": losses[0].grad_fn}


# --- eval()/train() switching, no_grad evaluation ------------------------------------------


@program()
def prog_tut_md_batchnorm_running_stats_train_eval(T: Any) -> Any:
    bn = T.nn.BatchNorm2d(3, momentum=0.3)
    cum = T.nn.BatchNorm1d(3, momentum=None)
    x = T.tensor(_data(4, 3, 2, 2, seed=100), requires_grad=True)
    z = T.tensor(_data(5, 3, seed=101))
    stats = []
    for i in range(3):
        y = bn(x * (i + 1))
        cum(z + i)
        stats.append((bn.running_mean.clone(), bn.running_var.clone(), cum.running_var.clone()))
    y.sum().backward()
    bn.eval()
    ye = bn(x)
    bn.train(False)
    flags = (bn.training, cum.training)
    bn.train()
    return {
        "stats": stats,
        "nbt": (bn.num_batches_tracked, cum.num_batches_tracked),
        "y": y,
        "ye": ye,
        "grad": x.grad,
        "flags": flags,
        "train_again": bn.training,
        "wgrad": bn.weight.grad,
    }


@program()
def prog_tut_md_batchnorm_no_running_stats_and_batch_of_one(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(4, track_running_stats=False, affine=False)
    x = T.tensor(_data(3, 4, seed=102), requires_grad=True)
    bn.eval()
    y = bn(x)  # still batch statistics in eval
    y.pow(2).sum().backward()
    one = T.nn.BatchNorm1d(4)
    err = raises(lambda: one(T.ones(1, 4)))
    one.eval()
    ok = one(T.ones(1, 4))
    return {"y": y, "g": x.grad, "buffers": dict(bn.named_buffers()), "err": err, "ok": ok}


@program()
def prog_tut_md_dropout_train_eval_and_functional_flag(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Dropout(0.5), nn.Linear(6, 2))
    _seeded(T, model, 103)
    x = T.tensor(_data(3, 4, seed=104), requires_grad=True)
    T.manual_seed(11)
    y_train = model(x)
    y_train.sum().backward()
    g_train = x.grad.clone()
    model.eval()
    y_eval = model(x)
    T.manual_seed(12)
    f_eval = F.dropout(x, 0.5, training=model.training)
    f_train = F.dropout(x, 0.5, training=True)
    d2 = nn.Dropout2d(0.5)
    T.manual_seed(13)
    c = d2(T.ones(2, 3, 2, 2))
    return {
        "y_train": y_train,
        "g_train": g_train,
        "y_eval": y_eval,
        "f_eval_is_x": f_eval is x,
        "f_eval": f_eval,
        "f_train": f_train,
        "c": c,
        "modes": [m.training for m in model.modules()],
    }


@program()
def prog_tut_md_no_grad_eval_state(T: Any) -> Any:
    net = _cifar_net(T)
    x = T.tensor(_data(2, 3, 12, 12, seed=105))
    with T.no_grad():
        out = net(x)
        inner = T.is_grad_enabled()
    pred = out.argmax(dim=1)
    out2 = net(x)
    with T.set_grad_enabled(False):
        out3 = net(x)
    with T.inference_mode():
        out4 = net(x)
    return {
        "out": out,
        "rg": (out.requires_grad, out2.requires_grad, out3.requires_grad, out4.requires_grad),
        "fn": (out.grad_fn, out2.grad_fn),
        "leaf": (out.is_leaf, out2.is_leaf),
        "inner": inner,
        "pred": pred,
        "acc": (pred == T.tensor([1, 0])).float().mean(),
        "inference": (out4.is_inference(), out.is_inference()),
        "eq": T.equal(out, out4),
    }


@program()
def prog_tut_md_inference_tensor_used_in_training_errors(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 106)
    with T.inference_mode():
        feats = T.tensor(_data(2, 3, seed=107)) * 2
    e1 = raises(lambda: lin(feats).sum().backward())
    e2 = raises(lambda: feats.add_(1))
    ok = lin(feats.clone()).sum()
    ok.backward()
    return {"e1": e1, "e2": e2, "g": lin.weight.grad, "rg": feats.requires_grad}


@program()
def prog_tut_md_argmax_accuracy_and_topk_ties(T: Any) -> Any:
    logits = T.tensor([[0.1, 0.9, 0.9], [2.0, -1.0, 2.0], [0.0, 0.0, 0.0], [1.0, 3.0, 2.0]])
    labels = T.tensor([1, 2, 0, 1])
    pred = logits.argmax(1)
    _, pm = T.max(logits, 1)
    tv, ti = logits.topk(2, dim=1)
    correct = (pred == labels).sum()
    acc = correct.item() / labels.size(0)
    top2 = (ti == labels.unsqueeze(1)).any(1).float().mean()
    return {
        "pred": pred,
        "pm": pm,
        "tv": tv,
        "ti": ti,
        "correct": correct,
        "acc": acc,
        "top2": top2,
    }


@program()
def prog_tut_md_gradient_accumulation_and_zero_grad_modes(T: Any) -> Any:
    net = _dqn(T, 108)
    opt = T.optim.SGD(net.parameters(), lr=0.1)
    x = T.tensor(_data(4, 4, seed=109))
    for i in range(2):
        (net(x[2 * i : 2 * i + 2]).pow(2).mean() / 2).backward()
    acc = _grads(net)
    opt.step()
    opt.zero_grad(set_to_none=False)
    zeros = _grads(net)
    opt.zero_grad()
    none = [p.grad is None for p in net.parameters()]
    net.zero_grad()
    return {"acc": acc, "zeros": zeros, "none": none, "params": _params(net)}


@program()
def prog_tut_md_forward_hook_captures_activations(T: Any) -> Any:
    net = _cifar_net(T)
    acts = {}
    calls = []

    def get_activation(name: str) -> Any:
        def hook(model: Any, input: Any, output: Any) -> None:
            acts[name] = output.detach()
            calls.append(("fwd", name, tuple(output.shape)))

        return hook

    h1 = net.conv2.register_forward_hook(get_activation("conv2"))
    h2 = net.fc1.register_forward_hook(get_activation("fc1"))
    h3 = net.fc3.register_full_backward_hook(
        lambda m, gi, go: calls.append(("bwd", gi[0].shape, go[0]))
    )
    x = T.tensor(_data(2, 3, 12, 12, seed=110))
    out = net(x)
    T.nn.functional.cross_entropy(out, T.tensor([0, 2])).backward()
    h1.remove()
    h2.remove()
    h3.remove()
    net(x)
    return {"acts": acts, "calls": calls, "rg": acts["fc1"].requires_grad}


# --- the mistakes users make in these tutorials --------------------------------------------


@program()
def prog_tut_md_err_backward_twice_and_no_grad_loss(T: Any) -> Any:
    model = _tagger(T, 6, 4, 5, 3)
    sentence, tags = _SENTS[0]
    loss = T.nn.functional.nll_loss(model(T.tensor(sentence)), T.tensor(tags))
    loss.backward()
    e1 = raises(lambda: loss.backward())
    with T.no_grad():
        l2 = T.nn.functional.nll_loss(model(T.tensor(sentence)), T.tensor(tags))
    e2 = raises(lambda: l2.backward())
    return {"e1": e1, "e2": e2, "l2": l2}


@program()
def prog_tut_md_err_loss_target_types_and_bounds(T: Any) -> Any:
    F = T.nn.functional
    logp = T.log_softmax(T.tensor(_data(3, 4, seed=111)), 1)
    return [
        raises(lambda: F.nll_loss(logp, T.tensor([0.0, 1.0, 2.0]))),
        raises(lambda: F.nll_loss(logp, T.tensor([0, 5, 1]))),
        raises(lambda: F.cross_entropy(logp, T.tensor([0, 1]))),
        raises(lambda: F.cross_entropy(logp, T.tensor([[0, 1, 2]]))),
        raises(lambda: F.nll_loss(logp, T.tensor([0, 1, 2], dtype=T.int32))),
        raises(lambda: T.nn.NLLLoss()(logp[0], T.tensor(4))),
    ]


@program()
def prog_tut_md_err_bce_inputs(T: Any) -> Any:
    F = T.nn.functional
    p = T.sigmoid(T.tensor(_data(4, seed=112)))
    return [
        raises(lambda: F.binary_cross_entropy(p * 2, T.ones(4))),
        raises(lambda: F.binary_cross_entropy(p, T.ones(4, 1))),
        raises(lambda: T.nn.BCELoss()(p, T.ones(4, dtype=T.long))),
        F.binary_cross_entropy(T.tensor([0.0, 1.0]), T.tensor([1.0, 0.0])),
        F.binary_cross_entropy_with_logits(p, T.ones(4), pos_weight=T.tensor([2.0])),
    ]


@program()
def prog_tut_md_err_shape_mistakes(T: Any) -> Any:
    net = _cifar_net(T)
    lstm = T.nn.LSTM(4, 3)
    emb = T.nn.Embedding(5, 2)
    return [
        raises(lambda: net(T.zeros(2, 1, 12, 12))),
        raises(lambda: net(T.zeros(2, 3, 10, 10))),
        raises(lambda: lstm(T.zeros(2, 1, 3))),
        raises(lambda: lstm(T.zeros(2, 1, 4), (T.zeros(1, 3), T.zeros(1, 3)))),
        raises(lambda: lstm(T.zeros(2, 1, 4), (T.zeros(1, 2, 3), T.zeros(1, 2, 3)))),
        raises(lambda: emb(T.tensor([0, 5]))),
        raises(lambda: emb(T.tensor([0.0, 1.0]))),
        raises(lambda: T.zeros(2, 3).t().view(6)),
    ]


@program()
def prog_tut_md_err_inplace_activation_breaks_backward(T: Any) -> Any:
    x = T.tensor(_data(2, 3, seed=113), requires_grad=True)
    s = T.sigmoid(x)
    T.nn.functional.relu(s, inplace=True)
    e1 = raises(lambda: s.sum().backward())
    w = T.nn.Parameter(T.tensor(_data(3, seed=114)))
    e2 = raises(lambda: T.nn.functional.leaky_relu(w, 0.2, inplace=True))
    t = T.tanh(x)
    T.nn.LeakyReLU(0.1, inplace=True)(t)
    e3 = raises(lambda: t.sum().backward())  # tanh's backward uses its output
    c = T.cos(x)
    T.nn.functional.leaky_relu_(c, 0.3)  # cos saves its input: fine
    c.sum().backward()
    return {"e1": e1, "e2": e2, "e3": e3, "g": x.grad, "t_fn": t.grad_fn, "ver": t._version}


@program()
def prog_tut_md_err_optimizer_and_state_dict_mistakes(T: Any) -> Any:
    net = _dqn(T, 115)
    other = T.nn.Linear(5, 8)
    sd = net.state_dict()
    bad = dict(sd)
    bad["layer1.weight"] = T.zeros(8, 5)
    extra = dict(sd)
    extra["layer9.bias"] = T.zeros(2)
    del extra["layer3.bias"]
    w = T.zeros(3, requires_grad=True) * 2
    return [
        raises(lambda: T.optim.SGD([w], lr=0.1)),
        raises(lambda: T.optim.SGD(net.parameters(), lr=-1)),
        raises(lambda: T.optim.Adam(net.parameters(), betas=(1.0, 0.9))),
        raises(lambda: net.load_state_dict(bad)),
        raises(lambda: net.load_state_dict(extra)),
        net.load_state_dict(extra, strict=False),
        raises(lambda: net.layer1.load_state_dict(other.state_dict())),
        raises(lambda: T.optim.LBFGS([{"params": [other.weight]}, {"params": [other.bias]}])),
    ]


@program()
def prog_tut_md_err_attention_masks(T: Any) -> Any:
    mha = T.nn.MultiheadAttention(4, 2)
    q = T.zeros(3, 1, 4)
    tr = T.nn.Transformer(4, 2, 1, 1, 6, 0.0)
    return [
        raises(lambda: T.nn.MultiheadAttention(5, 2)),
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(4, 4))),
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(2, 3, 3))),
        raises(lambda: tr(T.zeros(3, 2, 4), T.zeros(2, 3, 4))),
        raises(lambda: tr(T.zeros(3, 2, 4), T.zeros(2, 2, 5))),
        raises(lambda: T.nn.TransformerEncoderLayer(4, 3)),
    ]


@program()
def prog_tut_md_non_leaf_grad_warning_and_retain_grad(T: Any) -> Any:
    emb = _seeded(T, T.nn.Embedding(4, 3), 116)
    e = emb(T.tensor([1, 2]))
    h = T.tanh(e)
    h.retain_grad()
    loss = h.pow(2).sum()
    loss.backward()
    return {
        "e_grad": e.grad,
        "h_grad": h.grad,
        "leaf": (e.is_leaf, emb.weight.is_leaf),
        "w": emb.weight.grad,
    }


# --- more recurrent variants: packed batches, cells, projections ----------------------------


@program()
def prog_tut_md_packed_gru_batch_of_names(T: Any) -> Any:
    rnn_utils = T.nn.utils.rnn
    gru = _seeded(T, T.nn.GRU(len(_LETTERS), 3, num_layers=2, bidirectional=True), 120)
    head = _seeded(T, T.nn.Linear(6, 3), 121)
    names = ["abc", "g", "fedc", "bb"]
    seqs = [_line_to_tensor(T, n).squeeze(1) for n in names]
    lengths = T.tensor([len(n) for n in names])
    padded = rnn_utils.pad_sequence(seqs)
    packed = rnn_utils.pack_padded_sequence(padded, lengths, enforce_sorted=False)
    out, h = gru(packed)
    unpacked, lens = rnn_utils.pad_packed_sequence(out, total_length=5)
    last = T.cat([h[-2], h[-1]], dim=1)
    loss = T.nn.functional.cross_entropy(head(last), T.tensor([0, 1, 2, 0]))
    loss.backward()
    return {
        "batch_sizes": packed.batch_sizes,
        "sorted": packed.sorted_indices,
        "unpacked": unpacked,
        "lens": lens,
        "h": h,
        "loss": loss,
        "grads": _grads(gru),
        "data_fn": out.data.grad_fn,
    }


@program()
def prog_tut_md_rnn_cells_unbatched_and_batched(T: Any) -> Any:
    cells = [
        _seeded(T, T.nn.RNNCell(3, 2, nonlinearity="tanh"), 122),
        _seeded(T, T.nn.GRUCell(3, 2), 123),
        _seeded(T, T.nn.LSTMCell(3, 2), 124),
    ]
    xs = T.tensor(_data(4, 3, seed=125), requires_grad=True)
    outs = []
    for cell in cells:
        h = None
        for t in range(4):
            if isinstance(cell, T.nn.LSTMCell):
                h = cell(xs[t], h)
                outs.append(h[0])
            else:
                h = cell(xs[t], h)
                outs.append(h)
    batched = cells[1](xs, T.zeros(4, 2))
    total = sum(o.sum() for o in outs) + batched.pow(2).sum()
    total.backward()
    return {"outs": outs, "batched": batched, "xs.grad": xs.grad, "g": [_grads(c) for c in cells]}


@program()
def prog_tut_md_lstm_proj_size_batch_first_dropout(T: Any) -> Any:
    T.manual_seed(2)
    lstm = _seeded(
        T, T.nn.LSTM(3, 4, num_layers=2, batch_first=True, dropout=0.3, proj_size=2), 126
    )
    x = T.tensor(_data(2, 5, 3, seed=127), requires_grad=True)
    T.manual_seed(3)
    out, (h, c) = lstm(x)
    (out.sum() + c.pow(2).sum()).backward()
    lstm.eval()
    out_e, _ = lstm(x)
    return {
        "out": out,
        "h": h,
        "c": c,
        "out_e": out_e,
        "x.grad": x.grad,
        "grads": _grads(lstm),
        "names": [n for n, _ in lstm.named_parameters()],
    }


@program()
def prog_tut_md_rnn_unbatched_input_and_hidden(T: Any) -> Any:
    rnn = _seeded(T, T.nn.RNN(3, 2, num_layers=2), 128)
    x = T.tensor(_data(4, 3, seed=129), requires_grad=True)
    h0 = T.tensor(_data(2, 2, seed=130), requires_grad=True)
    out, hn = rnn(x, h0)
    (out.sum() + hn.sum()).backward()
    bad = raises(lambda: rnn(x, T.zeros(2, 1, 2)))
    return {"out": out, "hn": hn, "x.grad": x.grad, "h0.grad": h0.grad, "bad": bad}


# --- more transformer paths: decoder masks, batch_first, fast path, sdpa --------------------


@program()
def prog_tut_md_transformer_batch_first_norm_first_causal(T: Any) -> Any:
    tr = T.nn.Transformer(
        d_model=4,
        nhead=2,
        num_encoder_layers=1,
        num_decoder_layers=2,
        dim_feedforward=5,
        dropout=0.0,
        batch_first=True,
        norm_first=True,
        activation="gelu",
    )
    _seeded(T, tr, 131)
    src = T.tensor(_data(2, 4, 4, seed=132), requires_grad=True)
    tgt = T.tensor(_data(2, 3, 4, seed=133), requires_grad=True)
    tgt_mask = tr.generate_square_subsequent_mask(3)
    mem_mask = T.tensor([[False, True, False, False]] * 3)
    out = tr(src, tgt, tgt_mask=tgt_mask, memory_mask=mem_mask, tgt_is_causal=True)
    out.pow(2).sum().backward()
    return {"out": out, "src.grad": src.grad, "tgt.grad": tgt.grad, "grads": _grads(tr)}


@program()
def prog_tut_md_transformer_encoder_nested_fast_path_eval(T: Any) -> Any:
    layer = T.nn.TransformerEncoderLayer(4, 2, 6, 0.1, batch_first=True)
    enc = _seeded(T, T.nn.TransformerEncoder(layer, 2), 134)
    x = T.tensor(_data(2, 4, 4, seed=135))
    kpm = T.tensor([[False, False, True, True], [False, False, False, True]])
    enc.eval()
    with T.no_grad():
        y = enc(x, src_key_padding_mask=kpm)
    with T.no_grad():
        y1 = enc.layers[0](x, src_key_padding_mask=kpm)
    return {"y": y, "padded_zero": y[0, 2:], "y1": y1, "shape": tuple(y.shape)}


@program()
def prog_tut_md_scaled_dot_product_attention_variants(T: Any) -> Any:
    F = T.nn.functional
    q = T.tensor(_data(2, 2, 3, 4, seed=136), requires_grad=True)
    k = T.tensor(_data(2, 2, 5, 4, seed=137), requires_grad=True)
    v = T.tensor(_data(2, 2, 5, 3, seed=138), requires_grad=True)
    bmask = T.tensor(_data(3, 5, seed=139)) > -0.5
    fmask = T.tensor(_data(2, 1, 3, 5, seed=140))
    a = F.scaled_dot_product_attention(q, k, v, attn_mask=bmask)
    b = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask, scale=0.3)
    c = F.scaled_dot_product_attention(q, k[:, :, :3], v[:, :, :3], is_causal=True)
    manual = T.softmax(q @ k.transpose(-2, -1) / math.sqrt(4) + fmask, dim=-1) @ v
    (a.sum() + b.pow(2).sum() + c.sum() + manual.sum()).backward()
    return {"a": a, "b": b, "c": c, "manual": manual, "gq": q.grad, "gk": k.grad, "gv": v.grad}


@program()
def prog_tut_md_multihead_attention_need_weights_false_eval(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True, bias=False), 141)
    x = T.tensor(_data(2, 3, 4, seed=142))
    out, w = mha(x, x, x, need_weights=False)
    mha.eval()
    with T.no_grad():
        out_e, w_e = mha(x, x, x)
    return {"out": out, "w": w, "out_e": out_e, "w_e": w_e, "fn": out.grad_fn is not None}


# --- more GAN / style pieces ------------------------------------------------------------------


@program()
def prog_tut_md_conv_transpose_output_size_and_padding(T: Any) -> Any:
    ct = _seeded(
        T,
        T.nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1, groups=1, dilation=1),
        143,
    )
    x = T.tensor(_data(1, 2, 3, 3, seed=144), requires_grad=True)
    y1 = ct(x)
    ct2 = _seeded(T, T.nn.ConvTranspose2d(2, 2, 3, stride=2, padding=1, groups=2), 145)
    y2 = ct2(x, output_size=[6, 6])
    y3 = ct2(x)
    err = raises(lambda: ct2(x, output_size=[9, 9]))
    (y1.sum() + y2.pow(2).sum() + y3.mean()).backward()
    return {
        "y1": y1,
        "y2": y2,
        "y3": y3,
        "err": err,
        "g": x.grad,
        "w1": ct.weight.grad,
        "w2": ct2.weight.grad,
    }


@program()
def prog_tut_md_fast_style_transformer_net_pieces(T: Any) -> Any:
    nn = T.nn

    class ConvLayer(nn.Module):
        def __init__(self, cin: int, cout: int, k: int, stride: int) -> None:
            super().__init__()
            self.pad = nn.ReflectionPad2d(k // 2)
            self.conv = nn.Conv2d(cin, cout, k, stride)

        def forward(self, x: Any) -> Any:
            return self.conv(self.pad(x))

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.c1 = ConvLayer(3, 4, 3, 1)
            self.in1 = nn.InstanceNorm2d(4, affine=True)
            self.c2 = ConvLayer(4, 4, 3, 2)
            self.in2 = nn.InstanceNorm2d(4, affine=True)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.c3 = ConvLayer(4, 3, 3, 1)

        def forward(self, x: Any) -> Any:
            y = T.relu(self.in1(self.c1(x)))
            y = T.relu(self.in2(self.c2(y)))
            return self.c3(self.up(y))

    net = _seeded(T, Net(), 146)
    x = T.tensor(np.random.default_rng(147).uniform(0, 255, (2, 3, 6, 6)).astype(np.float32))
    opt = T.optim.Adam(net.parameters(), lr=1e-3)
    losses = []
    for _ in range(2):
        opt.zero_grad()
        y = net(x / 255)
        loss = T.nn.functional.mse_loss(y, x / 255) + 1e-5 * (
            T.sum(T.abs(y[:, :, :, :-1] - y[:, :, :, 1:]))
            + T.sum(T.abs(y[:, :, :-1, :] - y[:, :, 1:, :]))
        )
        loss.backward()
        opt.step()
        losses.append(loss)
    return {"y": y, "losses": losses, "grads": _grads(net)}


@program()
def prog_tut_md_gan_bce_with_logits_and_gradient_penalty(T: Any) -> Any:
    D = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.LeakyReLU(0.2), T.nn.Linear(4, 1)), 148)
    real = T.tensor(_data(4, 3, seed=149))
    fake = T.tensor(_data(4, 3, seed=150))
    alpha = T.tensor(np.random.default_rng(151).uniform(0, 1, (4, 1)).astype(np.float32))
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d = D(interp)
    (g,) = T.autograd.grad(d, interp, grad_outputs=T.ones_like(d), create_graph=True)
    gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
    crit = T.nn.BCEWithLogitsLoss()
    loss = crit(D(real), T.ones(4, 1)) + crit(D(fake), T.zeros(4, 1)) + 10 * gp
    loss.backward()
    return {
        "gp": gp,
        "loss": loss,
        "g_fn": g.grad_fn,
        "grads": _grads(D),
        "interp.grad": interp.grad,
    }


@program()
def prog_tut_md_gradient_penalty_through_piecewise_activations(T: Any) -> Any:
    F = T.nn.functional
    acts = {
        "leaky": lambda v: F.leaky_relu(v, 0.2),
        "hardtanh": lambda v: F.hardtanh(v, -0.5, 0.5),
        "relu6": lambda v: F.relu6(v * 4),
        "hardswish": F.hardswish,
        "logsigmoid": F.logsigmoid,
        "hardsigmoid": F.hardsigmoid,
    }
    out = {}
    for name, act in acts.items():
        lin = _seeded(T, T.nn.Linear(3, 4), 161)
        x = T.tensor(_data(5, 3, seed=162) * 2, requires_grad=True)
        d = act(lin(x)).sum(1)
        (g,) = T.autograd.grad(d, x, grad_outputs=T.ones_like(d), create_graph=True)
        fns = [type(f).__name__ if f is not None else None for f, _ in g.grad_fn.next_functions]
        inner = g.grad_fn.next_functions[0][0]
        inner_fns = [type(f).__name__ if f is not None else None for f, _ in inner.next_functions]
        gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
        err = raises(lambda gp=gp: gp.backward())
        out[name] = (g, fns, inner_fns, err, x.grad, lin.weight.grad, lin.bias.grad)
    return out


@program()
def prog_tut_md_prelu_generator_graph_and_errors(T: Any) -> Any:
    nn = T.nn
    net = _seeded(
        T,
        nn.Sequential(nn.Conv2d(1, 3, 3), nn.PReLU(3), nn.Flatten(), nn.Linear(12, 2), nn.PReLU()),
        209,
    )
    x = T.tensor(_data(2, 1, 4, 4, seed=210), requires_grad=True)
    y = net(x)
    y.pow(2).sum().backward()
    inner = net[:2](x)
    v = T.tensor(_data(5, seed=211), requires_grad=True)
    w1 = T.tensor([0.3], requires_grad=True)
    y1 = T.nn.functional.prelu(v, w1)
    (g1,) = T.autograd.grad(y1.sum(), w1, create_graph=True)
    return {
        "y": y,
        "fns": [inner.grad_fn, y.grad_fn],
        "grads": _grads(net),
        "x.grad": x.grad,
        "1d": (y1, y1.grad_fn, g1, g1.grad_fn.name()),
        "errors": [
            raises(lambda: T.nn.functional.prelu(T.ones(4), T.ones(4))),
            raises(lambda: T.nn.functional.prelu(T.ones(4), T.ones(3))),
            raises(lambda: T.nn.functional.prelu(T.ones(2, 3), T.ones(3, 1))),
            raises(lambda: T.nn.functional.prelu(T.ones(2, 3), T.ones(2))),
            raises(lambda: T.nn.PReLU(2)(T.tensor(1.0))),
        ],
    }


# --- training-loop plumbing the tutorials use -------------------------------------------------


@program()
def prog_tut_md_checkpoint_resume_training_matches(T: Any) -> Any:
    x = T.tensor(_data(6, 4, seed=152))
    y = T.tensor([0, 1, 1, 0, 1, 0])

    def step(net: Any, opt: Any) -> Any:
        opt.zero_grad()
        loss = T.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        return loss

    net = _dqn(T, 153)
    opt = T.optim.Adam(net.parameters(), lr=0.01, weight_decay=0.01)
    sched = T.optim.lr_scheduler.ExponentialLR(opt, 0.9)
    step(net, opt)
    sched.step()
    buf = io.BytesIO()
    T.save(
        {
            "model": net.state_dict(),
            "opt": opt.state_dict(),
            "sched": sched.state_dict(),
            "epoch": 1,
        },
        buf,
    )
    a = [step(net, opt)]
    buf.seek(0)
    ck = T.load(buf)
    net2 = _dqn(T, 154)
    net2.load_state_dict(ck["model"])
    opt2 = T.optim.Adam(net2.parameters(), lr=0.5)
    opt2.load_state_dict(ck["opt"])
    sched2 = T.optim.lr_scheduler.ExponentialLR(opt2, 0.5)
    sched2.load_state_dict(ck["sched"])
    b = [step(net2, opt2)]
    return {
        "a": a,
        "b": b,
        "same": T.equal(a[0], b[0]),
        "lr": opt2.param_groups[0]["lr"],
        "epoch": ck["epoch"],
        "st": _ostate(opt2),
    }


@program()
def prog_tut_md_deepcopy_target_net_independent(T: Any) -> Any:
    import copy

    policy = _dqn(T, 155)
    target = copy.deepcopy(policy)
    target.requires_grad_(False)
    x = T.tensor(_data(3, 4, seed=156))
    opt = T.optim.RMSprop(policy.parameters(), lr=0.01, alpha=0.9, centered=True, momentum=0.5)
    for _ in range(2):
        opt.zero_grad()
        loss = (policy(x) - target(x)).pow(2).sum() + policy(x).sum()
        loss.backward()
        opt.step()
    return {
        "diff": [
            (a - b).abs().sum()
            for a, b in zip(policy.parameters(), target.parameters(), strict=True)
        ],
        "target_rg": [p.requires_grad for p in target.parameters()],
        "target_grad": [p.grad for p in target.parameters()],
        "state": _ostate(opt),
    }


@program()
def prog_tut_md_reduce_lr_on_plateau_validation_loop(T: Any) -> Any:
    net = _dqn(T, 157)
    opt = T.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    sched = T.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
    x = T.tensor(_data(4, 4, seed=158))
    val = T.tensor(_data(4, 4, seed=159))
    trace = []
    for _ in range(5):
        net.train()
        opt.zero_grad()
        T.nn.functional.mse_loss(net(x), T.zeros(4, 2)).backward()
        opt.step()
        net.eval()
        with T.no_grad():
            vl = T.nn.functional.mse_loss(net(val), T.ones(4, 2)).item()
        sched.step(vl)
        trace.append((vl, opt.param_groups[0]["lr"], sched.num_bad_epochs))
    return trace


@program()
def prog_tut_md_model_double_and_dtype_mismatch(T: Any) -> Any:
    net = _cifar_net(T)
    x = T.tensor(_data(1, 3, 12, 12, seed=160))
    err = raises(lambda: net(x.double()))
    net.double()
    y = net(x.double())
    y.sum().backward()
    err2 = raises(lambda: net(x))
    return {
        "err": err,
        "y": y,
        "dt": net.fc1.weight.grad.dtype,
        "err2": err2,
        "g": net.conv1.weight.grad,
    }


@program()
def prog_tut_md_parameters_to_vector_and_count(T: Any) -> Any:
    net = _cifar_net(T)
    v = T.nn.utils.parameters_to_vector(net.parameters())
    T.nn.utils.vector_to_parameters(v * 2, net.parameters())
    n_train = sum(p.numel() for p in net.parameters() if p.requires_grad)
    net.conv1.requires_grad_(False)
    n_train2 = sum(p.numel() for p in net.parameters() if p.requires_grad)
    return {
        "v": v,
        "w": net.fc3.weight,
        "n": (n_train, n_train2),
        "v_fn": v.grad_fn,
        "w_leaf": net.fc3.weight.is_leaf,
    }


# --- word language model: tied weights, truncated BPTT, hidden-state hooks ------------------


def _rnn_lm(T: Any, tie: bool = True) -> Any:
    nn = T.nn

    class RNNModel(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.drop = nn.Dropout(0.2)
            self.encoder = nn.Embedding(7, 4)
            self.rnn = nn.LSTM(4, 4, 2, dropout=0.2)
            self.decoder = nn.Linear(4, 7)
            if tie:
                self.decoder.weight = self.encoder.weight

        def forward(self, input: Any, hidden: Any) -> Any:
            emb = self.drop(self.encoder(input))
            output, hidden = self.rnn(emb, hidden)
            output = self.drop(output)
            decoded = self.decoder(output).view(-1, 7)
            return T.log_softmax(decoded, dim=1), hidden

        def init_hidden(self, bsz: int) -> Any:
            weight = next(self.parameters())
            return (weight.new_zeros(2, bsz, 4), weight.new_zeros(2, bsz, 4))

    return _seeded(T, RNNModel(), 170)


def _repackage_hidden(T: Any, h: Any) -> Any:
    if isinstance(h, T.Tensor):
        return h.detach()
    return tuple(_repackage_hidden(T, v) for v in h)


@program()
def prog_tut_md_word_lm_tied_weights_truncated_bptt(T: Any) -> Any:
    model = _rnn_lm(T)
    data = _batchify(T, T.tensor(_ints(21, 7, seed=171)), 2)
    T.manual_seed(4)
    model.train()
    hidden = model.init_hidden(2)
    lr = 2.0
    losses, leaf_hidden = [], []
    for i in range(0, data.size(0) - 1, 3):
        seq_len = min(3, len(data) - 1 - i)
        inp, target = data[i : i + seq_len], data[i + 1 : i + 1 + seq_len].reshape(-1)
        model.zero_grad()
        hidden = _repackage_hidden(T, hidden)
        leaf_hidden.append((hidden[0].is_leaf, hidden[0].requires_grad, hidden[0].grad_fn))
        output, hidden = model(inp, hidden)
        loss = T.nn.NLLLoss()(output, target)
        loss.backward()
        T.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        losses.append(loss.item())
    names = [n for n, _ in model.named_parameters()]
    return {
        "losses": losses,
        "leaf_hidden": leaf_hidden,
        "names": names,
        "sd_keys": list(model.state_dict()),
        "tied": model.decoder.weight is model.encoder.weight,
        "grads": _grads(model),
        "hidden_fn": hidden[0].grad_fn,
    }


@program()
def prog_tut_md_word_lm_backward_through_old_hidden_errors(T: Any) -> Any:
    model = _rnn_lm(T, tie=False)
    model.eval()
    data = T.tensor([[1, 2], [3, 4], [5, 6]])
    hidden = model.init_hidden(2)
    out, hidden = model(data, hidden)
    out.sum().backward()
    out2, hidden2 = model(data, hidden)  # forgot to detach: graph reaches the freed first step
    err = raises(lambda: out2.sum().backward())
    model.zero_grad()
    out3, _ = model(data, _repackage_hidden(T, hidden))
    out3.sum().backward()
    return {"err": err, "g": _grads(model), "h_fn": hidden2[1].grad_fn}


@program()
def prog_tut_md_hidden_state_hooks_clamp_gradient(T: Any) -> Any:
    cell = _seeded(T, T.nn.GRUCell(2, 3), 172)
    xs = T.tensor(_data(4, 1, 2, seed=173) * 3)
    h = T.zeros(1, 3, requires_grad=True)
    seen = []
    hs = []
    for t in range(4):
        h = cell(xs[t], h)
        h.register_hook(lambda g, t=t: seen.append((t, g.clone())) or g.clamp(-0.1, 0.1))
        hs.append(h)
    (h * T.tensor([[5.0, -7.0, 1.0]])).sum().backward()
    return {"seen": seen, "grads": _grads(cell), "hs": hs}


@program()
def prog_tut_md_pack_sequence_lstm_and_unpack(T: Any) -> Any:
    rnn_utils = T.nn.utils.rnn
    lstm = _seeded(T, T.nn.LSTM(2, 3, batch_first=True), 174)
    seqs = [T.tensor(_data(n, 2, seed=175 + n), requires_grad=True) for n in (3, 1, 4)]
    packed = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
    out, (h, c) = lstm(packed)
    per_seq = rnn_utils.unpack_sequence(out)
    padded, lens = rnn_utils.pad_packed_sequence(out, batch_first=True, padding_value=-1.0)
    loss = sum(s[-1].pow(2).sum() for s in per_seq) + h.sum()
    loss.backward()
    return {
        "per_seq": per_seq,
        "padded": padded,
        "lens": lens,
        "h": h,
        "c": c,
        "last_eq_h": [T.allclose(s[-1], h[0, i]) for i, s in enumerate(per_seq)],
        "seq_grads": [s.grad for s in seqs],
        "unsorted": packed.unsorted_indices,
    }


# --- more seq2seq: the classic attention decoder with max_length ------------------------------


@program()
def prog_tut_md_seq2seq_classic_attn_decoder_max_length(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    H, V, MAXLEN = 4, 6, 5

    class AttnDecoderRNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embedding = nn.Embedding(V, H)
            self.attn = nn.Linear(H * 2, MAXLEN)
            self.attn_combine = nn.Linear(H * 2, H)
            self.dropout = nn.Dropout(0.1)
            self.gru = nn.GRU(H, H)
            self.out = nn.Linear(H, V)

        def forward(self, input: Any, hidden: Any, encoder_outputs: Any) -> Any:
            embedded = self.dropout(self.embedding(input).view(1, 1, -1))
            attn_weights = F.softmax(self.attn(T.cat((embedded[0], hidden[0]), 1)), dim=1)
            attn_applied = T.bmm(attn_weights.unsqueeze(0), encoder_outputs.unsqueeze(0))
            output = T.cat((embedded[0], attn_applied[0]), 1)
            output = F.relu(self.attn_combine(output).unsqueeze(0))
            output, hidden = self.gru(output, hidden)
            return F.log_softmax(self.out(output[0]), dim=1), hidden, attn_weights

    T.manual_seed(9)
    enc_emb = _seeded(T, nn.Embedding(V, H), 180)
    enc_gru = _seeded(T, nn.GRU(H, H), 181)
    dec = _seeded(T, AttnDecoderRNN(), 182)
    params = list(enc_emb.parameters()) + list(enc_gru.parameters()) + list(dec.parameters())
    opt = T.optim.SGD(params, lr=0.01)
    criterion = nn.NLLLoss()
    src, tgt = T.tensor([[1], [2], [3]]), T.tensor([[4], [5], [1]])
    losses = []
    for it in range(2):
        encoder_hidden = T.zeros(1, 1, H)
        opt.zero_grad()
        encoder_outputs = T.zeros(MAXLEN, H)
        for ei in range(src.size(0)):
            out, encoder_hidden = enc_gru(enc_emb(src[ei]).view(1, 1, -1), encoder_hidden)
            encoder_outputs[ei] = out[0, 0]
        decoder_input = T.tensor([[0]])
        decoder_hidden = encoder_hidden
        loss = 0
        attns = []
        for di in range(tgt.size(0)):
            decoder_output, decoder_hidden, w = dec(decoder_input, decoder_hidden, encoder_outputs)
            loss += criterion(decoder_output, tgt[di])
            attns.append(w)
            teacher = tgt[di]
            decoder_input = teacher if it == 0 else decoder_output.topk(1)[1].squeeze().detach()
        loss.backward()
        opt.step()
        losses.append(loss.item() / tgt.size(0))
    return {
        "losses": losses,
        "attns": attns,
        "enc_out_fn": encoder_outputs.grad_fn,
        "g": [p.grad for p in params],
    }


# --- more DQN: epsilon-greedy, the Huber loss on a full replay update -----------------------


@program()
def prog_tut_md_dqn_select_action_epsilon_schedule(T: Any) -> Any:
    policy = _dqn(T, 183)
    EPS_START, EPS_END, EPS_DECAY = 0.9, 0.05, 10
    rng = np.random.default_rng(184)
    actions, thresholds = [], []
    for steps_done in range(6):
        state = T.tensor(rng.standard_normal(4).astype(np.float32)).unsqueeze(0)
        eps = EPS_END + (EPS_START - EPS_END) * math.exp(-1.0 * steps_done / EPS_DECAY)
        thresholds.append(eps)
        if rng.uniform() > eps:
            with T.no_grad():
                actions.append(policy(state).max(1).indices.view(1, 1))
        else:
            actions.append(T.tensor([[int(rng.integers(0, 2))]], dtype=T.long))
    batch = T.cat(actions)
    return {
        "actions": batch,
        "dtype": batch.dtype,
        "thresholds": thresholds,
        "rg": batch.requires_grad,
    }


# --- more initialization: the translation tutorial's xavier init and DCGAN's ---------------


@program()
def prog_tut_md_xavier_init_for_matrices_only(T: Any) -> Any:
    T.manual_seed(21)
    model = T.nn.Transformer(4, 2, 1, 1, 6, 0.0)
    for p in model.parameters():
        if p.dim() > 1:
            T.nn.init.xavier_uniform_(p)
    gen = T.nn.Linear(4, 3)
    T.nn.init.kaiming_normal_(gen.weight, mode="fan_out", nonlinearity="leaky_relu", a=0.2)
    T.nn.init.zeros_(gen.bias)
    ps = dict(model.named_parameters())
    return {
        "in_proj": ps["encoder.layers.0.self_attn.in_proj_weight"],
        "lin": ps["decoder.layers.0.linear2.weight"],
        "norm": ps["encoder.norm.weight"],
        "gen": gen.weight,
        "bias": gen.bias,
        "n": len(ps),
        "rg": all(p.requires_grad and p.is_leaf for p in model.parameters()),
    }


@program()
def prog_tut_md_transformer_dropout_training_seeded(T: Any) -> Any:
    T.manual_seed(22)
    tr = T.nn.Transformer(4, 2, 1, 1, 6, dropout=0.3, batch_first=True)
    _seeded(T, tr, 185)
    src = T.tensor(_data(2, 3, 4, seed=186))
    tgt = T.tensor(_data(2, 2, 4, seed=187))
    opt = T.optim.Adam(tr.parameters(), lr=0.01)
    T.manual_seed(23)
    losses = []
    for _ in range(2):
        opt.zero_grad()
        out = tr(src, tgt, tgt_mask=tr.generate_square_subsequent_mask(2))
        loss = out.pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss)
    return {"losses": losses, "grads": _grads(tr)}


@program()
def prog_tut_md_mha_attention_dropout_training(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, dropout=0.5), 188)
    x = T.tensor(_data(3, 2, 4, seed=189), requires_grad=True)
    T.manual_seed(24)
    out, w = mha(x, x, x)
    out.sum().backward()
    return {"out": out, "w": w, "x.grad": x.grad, "grads": _grads(mha)}


# --- more CIFAR: full-batch LBFGS on a network and Adam with StepLR -------------------------


@program()
def prog_tut_md_cifar_full_batch_lbfgs_on_network(T: Any) -> Any:
    net = _cifar_net(T)
    x = T.tensor(_data(4, 3, 12, 12, seed=190))
    y = T.tensor([0, 1, 2, 0])
    opt = T.optim.LBFGS(net.parameters(), lr=0.5, max_iter=3, history_size=2)

    def closure() -> Any:
        opt.zero_grad()
        loss = T.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        return loss

    losses = [opt.step(closure) for _ in range(2)]
    return {"losses": losses, "params": _params(net)}


@program()
def prog_tut_md_cifar_adam_steplr_epochs(T: Any) -> Any:
    net = _cifar_net(T)
    opt = T.optim.Adam(net.parameters(), lr=0.01)
    sched = T.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
    x = T.tensor(_data(4, 3, 12, 12, seed=191))
    y = T.tensor([2, 1, 0, 1])
    trace = []
    for _epoch in range(4):
        opt.zero_grad()
        loss = T.nn.CrossEntropyLoss(reduction="sum")(net(x), y)
        loss.backward()
        opt.step()
        sched.step()
        trace.append((loss.item(), sched.get_last_lr()[0]))
    return {"trace": trace, "state": _ostate(opt), "sched": sched.state_dict()}


# --- the legacy Variable API of the older tutorials -------------------------------------------


@program()
def prog_tut_md_legacy_variable_wrapping(T: Any) -> Any:
    Variable = T.autograd.Variable
    x = T.tensor(_data(2, 3, seed=192))
    v = Variable(x, requires_grad=True)
    w = Variable(T.tensor(_data(3, 2, seed=193)), requires_grad=True)
    loss = (v @ w).tanh().sum()
    loss.backward()
    sos = Variable(T.LongTensor([[0]]))
    y = T.ones(2, requires_grad=True) * 3
    vy = Variable(y)
    empty = Variable()
    return {
        "x_untouched": (x.requires_grad, x.grad),
        "v": (v.is_leaf, v.requires_grad, v.grad, v is x, v.data_ptr() == x.data_ptr()),
        "w.grad": w.grad,
        "sos": (sos, type(sos).__name__),
        "vy": (vy.requires_grad, vy.grad_fn, vy.is_leaf),
        "empty": empty,
        "isinstance": (
            isinstance(x, Variable),
            isinstance(3, Variable),
            issubclass(T.Tensor, Variable),
        ),
        "volatile": raises(lambda: Variable(x, volatile=True).requires_grad),
        "both": raises(lambda: Variable(x, requires_grad=True, volatile=True)),
        "not_tensor": raises(lambda: Variable([1.0, 2.0])),
        "int_rg": raises(lambda: Variable(T.tensor([1, 2]), requires_grad=True)),
        "attr": x.volatile,
    }


@program()
def prog_tut_md_legacy_tensor_constructors_and_cuda_types(T: Any) -> Any:
    use_cuda = T.cuda.is_available()
    dtype = T.cuda.FloatTensor if use_cuda else T.FloatTensor
    long_t = T.cuda.LongTensor if use_cuda else T.LongTensor
    x = T.tensor(_data(2, 3, seed=194))
    xl = T.tensor([1, 2])
    alias = T.Tensor(x)
    alias.add_(1)  # shares x's data
    return {
        "zero": T.Tensor([0]),
        "sizes": (
            tuple(T.Tensor(2, 3).shape),
            tuple(T.Tensor().shape),
            tuple(T.Tensor(T.Size([2])).shape),
        ),
        "alias": (alias is x, x, T.Tensor(xl).dtype),
        "np_int_size": tuple(T.LongTensor(np.int64(3)).shape),
        "typed": (x.type(dtype).dtype, T.tensor([0.5, 1.7]).type(long_t)),
        "isinstance": (
            isinstance(x, T.FloatTensor),
            isinstance(x, T.cuda.FloatTensor),
            repr(T.cuda.FloatTensor),
        ),
        "errors": [
            raises(lambda: T.Tensor(2.5)),
            raises(lambda: T.Tensor(np.float32(2.0))),
            raises(lambda: T.Tensor("a")),
            raises(lambda: T.Tensor(True)),
            raises(lambda: T.Tensor(2, 3.0)),
            raises(lambda: T.Tensor(x, device="cpu")),
            raises(lambda: T.FloatTensor(xl)),
            raises(lambda: T.cuda.FloatTensor(2)),
            raises(lambda: x.type(T.cuda.FloatTensor)),
            raises(lambda: x.type("torch.cuda.LongTensor")),
            raises(lambda: T.nn.Parameter(xl)),
        ],
    }


@program()
def prog_tut_md_tensor_list_arguments_and_ranges(T: Any) -> Any:
    xs = [T.tensor(_data(1, 3, seed=195 + i), requires_grad=True) for i in range(3)]
    ok = T.cat(xs) * T.stack(tuple(xs)).squeeze(1)
    ok.sum().backward()
    return {
        "range": (T.tensor(range(4)), T.tensor([range(2), range(2)]), T.FloatTensor(range(3))),
        "ok": ok,
        "grads": [x.grad for x in xs],
        "errors": [
            raises(lambda: T.cat(x * 2 for x in xs)),
            raises(lambda: T.stack(iter(xs))),
            raises(lambda: T.cat({xs[0]})),
            raises(lambda: T.hstack([xs[0], 1])),
            raises(lambda: T.vstack(map(T.tanh, xs))),
            raises(lambda: T.stack([xs[0], 2.0])),
            raises(lambda: T.concat(iter(xs))),
            raises(lambda: T.tensor(x for x in range(3))),
            raises(lambda: T.tensor({1, 2})),
        ],
    }


# --- evaluation helpers and mode switching as the tutorials write them ------------------------


@program()
def prog_tut_md_transformer_lm_best_model_and_perplexity(T: Any) -> Any:
    import copy

    model = _transformer_lm(T)
    data = _batchify(T, T.tensor(_ints(18, 9, seed=196)), 2)
    crit = T.nn.CrossEntropyLoss()
    opt = T.optim.SGD(model.parameters(), lr=1.0)

    @T.no_grad()
    def evaluate(m: Any) -> float:
        m.eval()
        total = 0.0
        for i in range(0, data.size(0) - 1, 4):
            seq_len = min(4, len(data) - 1 - i)
            out = m(data[i : i + seq_len])
            total += (
                seq_len * crit(out.view(-1, 9), data[i + 1 : i + 1 + seq_len].reshape(-1)).item()
            )
        return total / (len(data) - 1)

    best_val, best_model, trace = float("inf"), None, []
    for _epoch in range(3):
        model.train()
        out = model(data[:-1])
        loss = crit(out.view(-1, 9), data[1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        T.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        val = evaluate(model)
        trace.append((loss.item(), val, math.exp(val), T.is_grad_enabled(), model.training))
        if val < best_val:
            best_val, best_model = val, copy.deepcopy(model)
    buf = io.BytesIO()
    T.save(best_model.state_dict(), buf)
    buf.seek(0)
    model.load_state_dict(T.load(buf))
    return {
        "trace": trace,
        "best": best_val,
        "reloaded": evaluate(model),
        "eq": evaluate(best_model),
    }


@program()
def prog_tut_md_char_rnn_batched_random_split_training(T: Any) -> Any:
    nn = T.nn

    class NamesDataset(T.utils.data.Dataset):
        def __init__(self) -> None:
            self.data = ["abc", "bad", "cafe", "dead", "face", "gag", "bead", "egg"]
            self.labels = [0, 1, 0, 1, 2, 2, 0, 1]

        def __len__(self) -> int:
            return len(self.data)

        def __getitem__(self, idx: int) -> Any:
            return T.tensor([self.labels[idx]], dtype=T.long), _line_to_tensor(T, self.data[idx])

    class CharRNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.rnn = nn.RNN(len(_LETTERS), 4)
            self.h2o = nn.Linear(4, 3)
            self.softmax = nn.LogSoftmax(dim=1)

        def forward(self, line_tensor: Any) -> Any:
            _, hidden = self.rnn(line_tensor)
            return self.softmax(self.h2o(hidden[0]))

    train, test = T.utils.data.random_split(
        NamesDataset(), [0.75, 0.25], generator=T.Generator().manual_seed(2024)
    )
    rnn = _seeded(T, CharRNN(), 197)
    criterion = nn.NLLLoss()
    optimizer = T.optim.SGD(rnn.parameters(), lr=0.2)
    rng = np.random.default_rng(198)
    losses = []
    for _epoch in range(2):
        order = rng.permutation(len(train))
        for batch in np.array_split(order, 2):
            batch_loss = 0
            for i in batch:
                label, text = train[int(i)]
                batch_loss += criterion(rnn(text), label)
            batch_loss.backward()
            nn.utils.clip_grad_norm_(rnn.parameters(), 3)
            optimizer.step()
            optimizer.zero_grad()
            losses.append(batch_loss.item() / len(batch))
    confusion = T.zeros(3, 3)
    rnn.eval()
    with T.no_grad():
        for i in range(len(test)):
            label, text = test[i]
            guess = rnn(text).topk(1)[1][0].item()
            confusion[label.item()][guess] += 1
    return {
        "split": (list(train.indices), list(test.indices)),
        "losses": losses,
        "confusion": confusion,
    }


@program()
def prog_tut_md_neural_style_data_clamp_in_closure(T: Any) -> Any:
    content = T.tensor(np.random.default_rng(199).uniform(0, 1, (1, 3, 4, 4)).astype(np.float32))
    style = T.tensor(np.random.default_rng(200).uniform(0, 1, (1, 3, 4, 4)).astype(np.float32))
    model, style_losses, content_losses = _style_model(T, style, content)
    model.requires_grad_(False)
    img = (content + 0.3 * T.tensor(_data(1, 3, 4, 4, seed=201))).requires_grad_()
    opt = T.optim.LBFGS([img], lr=0.8, max_iter=3)
    versions = []

    def closure() -> Any:
        img.data.clamp_(0, 1)
        versions.append(img._version)
        opt.zero_grad()
        model(img)
        loss = 100 * sum(sl.loss for sl in style_losses) + sum(cl.loss for cl in content_losses)
        loss.backward()
        return loss

    out = [opt.step(closure) for _ in range(2)]
    img.data.clamp_(0, 1)
    return {"out": out, "img": img, "leaf": img.is_leaf, "grad": img.grad, "nv": len(versions)}


@program()
def prog_tut_md_gru_dropout_between_layers_train_eval(T: Any) -> Any:
    gru = _seeded(T, T.nn.GRU(3, 3, num_layers=3, dropout=0.4), 202)
    x = T.tensor(_data(4, 2, 3, seed=203))
    T.manual_seed(5)
    a, ha = gru(x)
    T.manual_seed(5)
    b, _ = gru(x)
    gru.eval()
    c, hc = gru(x)
    d, _ = gru(x)
    gru.train()
    (a.sum() + ha.pow(2).sum()).backward()
    return {
        "a": a,
        "c": c,
        "ab": T.equal(a, b),
        "cd": T.equal(c, d),
        "hc": hc,
        "grads": _grads(gru),
    }


@program()
def prog_tut_md_custom_train_override_and_mode_chaining(T: Any) -> Any:
    nn = T.nn

    class FrozenBNNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bn = nn.BatchNorm1d(3)
            self.drop = nn.Dropout(0.5)
            self.fc = nn.Linear(3, 2)

        def train(self, mode: bool = True) -> Any:
            super().train(mode)
            self.bn.eval()  # keep the running statistics frozen, as fine-tuning code does
            return self

        def forward(self, x: Any) -> Any:
            return self.fc(self.drop(self.bn(x)))

    net = _seeded(T, FrozenBNNet(), 204)
    r = net.train()
    modes = [(n, m.training) for n, m in net.named_modules()]
    x = T.tensor(_data(4, 3, seed=205))
    T.manual_seed(6)
    y = net(x)
    y.sum().backward()
    r2 = net.eval()
    return {
        "same": (r is net, r2 is net),
        "modes": modes,
        "after_eval": [m.training for m in net.modules()],
        "rm": net.bn.running_mean,
        "nbt": net.bn.num_batches_tracked,
        "y": y,
        "grads": _grads(net),
    }


@program()
def prog_tut_md_grad_mode_decorators_and_nesting(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 206)
    x = T.tensor(_data(2, 3, seed=207))

    @T.no_grad()
    def predict(v: Any) -> Any:
        with T.enable_grad():
            inner = lin(v)
        return lin(v), inner, T.is_grad_enabled()

    @T.inference_mode()
    def infer(v: Any) -> Any:
        return lin(v)

    out, inner, flag = predict(x)
    inf = infer(x)
    with T.set_grad_enabled(False):
        mid = lin(x)
        with T.set_grad_enabled(True):
            deep = lin(x)
    inner.sum().backward()
    return {
        "flags": (
            out.requires_grad,
            inner.requires_grad,
            flag,
            inf.requires_grad,
            inf.is_inference(),
        ),
        "mid": (mid.requires_grad, deep.requires_grad, deep.grad_fn),
        "g": lin.weight.grad,
        "outer": T.is_grad_enabled(),
        "err": raises(lambda: inf.add_(1)),
        "err2": raises(lambda: T.nn.functional.linear(inf, lin.weight.t()).sum().backward()),
    }


@program()
def prog_tut_md_optimizer_step_without_grads_and_frozen_layers(T: Any) -> Any:
    net = _cifar_net(T)
    net.conv1.requires_grad_(False)
    opt = T.optim.Adam(filter(lambda p: p.requires_grad, net.parameters()), lr=0.01)
    before = _params(net)
    opt.step()  # no grads yet: nothing moves, no state
    s0 = _ostate(opt)
    x = T.tensor(_data(2, 3, 12, 12, seed=208))
    T.nn.functional.cross_entropy(net(x), T.tensor([1, 2])).backward()
    opt.step()
    after = _params(net)
    return {
        "s0": s0,
        "moved": {n: not T.equal(before[n], after[n]) for n in before},
        "frozen_grad": (net.conv1.weight.grad, net.conv1.bias.grad),
        "n_groups": len(opt.param_groups[0]["params"]),
        "state": _ostate(opt),
    }


# --- padding, fully masked rows and other edges of the attention tutorials --------------------


@program()
def prog_tut_md_padded_batch_attention_with_masked_fill(T: Any) -> Any:
    rnn_utils = T.nn.utils.rnn
    PAD = 0
    seqs = [T.tensor([3, 4, 5]), T.tensor([2]), T.tensor([6, 7])]
    batch = rnn_utils.pad_sequence(seqs, batch_first=True, padding_value=PAD)
    emb = _seeded(T, T.nn.Embedding(8, 4, padding_idx=PAD), 212)
    proj = _seeded(T, T.nn.Linear(4, 8), 213)
    h = emb(batch)
    q = h.mean(1, keepdim=True)
    scores = (q @ h.transpose(1, 2)) / math.sqrt(4)
    mask = (batch == PAD).unsqueeze(1)
    scores = scores.masked_fill(mask, float("-inf"))
    w = T.softmax(scores, dim=-1)
    ctx = (w @ h).squeeze(1)
    logits = proj(ctx)
    tgt = T.tensor([1, PAD, 2])
    loss = T.nn.CrossEntropyLoss(ignore_index=PAD)(logits, tgt)
    loss.backward()
    return {
        "batch": batch,
        "w": w,
        "loss": loss,
        "emb": emb.weight.grad,
        "proj": proj.weight.grad,
        "fn": w.grad_fn,
    }


@program()
def prog_tut_md_fully_masked_rows_give_nan(T: Any) -> Any:
    scores = T.tensor(_data(2, 3, seed=214), requires_grad=True)
    mask = T.tensor([[True, True, True], [False, True, False]])
    w = T.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
    w.sum().backward()
    layer = _seeded(T, T.nn.TransformerEncoderLayer(4, 2, 6, 0.0, batch_first=True), 215)
    x = T.tensor(_data(2, 3, 4, seed=216), requires_grad=True)
    kpm = T.tensor([[True, True, True], [False, False, True]])
    y = layer(x, src_key_padding_mask=kpm)
    y[1].sum().backward()
    return {"w": w, "g": scores.grad, "y": y, "x.grad": x.grad, "nan_rows": T.isnan(y).any(-1)}


@program()
def prog_tut_md_grid_sample_border_at_exact_edges(T: Any) -> Any:
    F = T.nn.functional
    img = T.tensor(_data(1, 2, 3, 3, seed=217), requires_grad=True)
    grid = T.tensor(
        [[[[-1.0, -1.0], [1.0, 1.0], [1.0, -1.0]], [[0.0, 0.0], [-1.5, 0.5], [1.25, -1.25]]]],
        requires_grad=True,
    )
    outs = {}
    for pad in ("zeros", "border", "reflection"):
        for ac in (True, False):
            outs[(pad, ac)] = F.grid_sample(img, grid, padding_mode=pad, align_corners=ac)
    total = sum((o * (i + 1)).sum() for i, o in enumerate(outs.values()))
    total.backward()
    return {"outs": outs, "img.grad": img.grad, "grid.grad": grid.grad}


@program()
def prog_tut_md_cifar_unnormalize_and_image_grid(T: Any) -> Any:
    images = T.tanh(T.tensor(_data(4, 3, 5, 5, seed=218)))
    normalize = (T.tensor([0.5, 0.5, 0.5]).view(3, 1, 1), T.tensor([0.5, 0.5, 0.5]).view(3, 1, 1))
    normed = (images - normalize[0]) / normalize[1]
    pad = T.zeros(3, 5, 1)
    row = T.cat([T.cat([im, pad], dim=2) for im in images], dim=2)
    img = row / 2 + 0.5
    npimg = img.numpy()
    hwc = np.transpose(npimg, (1, 2, 0))
    return {
        "normed": normed,
        "row": row,
        "hwc": T.from_numpy(np.ascontiguousarray(hwc)),
        "range": (img.min(), img.max()),
        "shares": np.shares_memory(npimg, img.numpy()),
    }


@program()
def prog_tut_md_dqn_done_mask_and_legacy_max_indexing(T: Any) -> Any:
    policy = _dqn(T, 219)
    target = _dqn(T, 220)
    states = T.tensor(_data(5, 4, seed=221))
    next_states = T.tensor(_data(5, 4, seed=222))
    actions = T.tensor([0, 1, 1, 0, 1])
    rewards = T.tensor([1.0, 0.0, -1.0, 1.0, 0.5])
    dones = T.tensor([0, 0, 1, 0, 1], dtype=T.float32)
    opt = T.optim.RMSprop(policy.parameters(), lr=0.01)
    q = policy(states).gather(1, actions.unsqueeze(1)).squeeze(1)
    with T.no_grad():
        nxt = target(next_states).max(1)[0]
    expected = rewards.clamp(-1, 1) + 0.9 * nxt * (1 - dones)
    loss = T.nn.functional.mse_loss(q, expected)
    opt.zero_grad()
    loss.backward()
    for p in policy.parameters():
        p.grad.data.clamp_(-0.05, 0.05)
    opt.step()
    return {
        "q": q,
        "expected": expected,
        "loss": loss,
        "grads": _grads(policy),
        "state": _ostate(opt),
    }


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
