"""Beam search against exhaustive search, decoding metrics, and the sampling functions' edge cases."""

import math

import pytest
import torch
from torch import nn

from utils.decoding import (
    DecodingMethod,
    Hypothesis,
    beam_search,
    beam_step,
    compare_decoders,
    decode,
    distinct_n,
    exhaustive_search,
    length_penalty,
    reorder_state,
    repetition,
    sequence_log_prob,
)
from utils.interface import LanguageModel
from utils.rnn import RNNConfig, RNNLM
from utils.toy_lm import GREEDY_TRAP as TRAP_TABLE, GREEDY_TRAP_LENGTH, STOP_TABLE, TableLM
from utils.transformer import TransformerConfig, TransformerLM
from utils.sampling import generate, next_token_probs, sample_next, softmax_with_temperature, top_k_filter, top_p_filter


class BigramTable(LanguageModel):
    """Next-token log-probabilities from a fixed (V, V) table: a model whose best sequence is known."""

    def __init__(self, probs: list[list[float]], context_length: int | None = None):
        super().__init__()
        self.register_buffer("table", torch.tensor(probs).log())
        self.vocab_size, self.context_length = len(probs), context_length

    def forward(self, idx):
        self.validate_input(idx)
        return self.table[idx]  # (B, T, V)


class HistoryMean(LanguageModel):
    """A random model whose prediction depends on the whole history (mean of embeddings)."""

    def __init__(self, vocab_size: int = 3, dim: int = 8, seed: int = 0):
        super().__init__()
        torch.manual_seed(seed)
        self.vocab_size = vocab_size
        self.embed, self.head = nn.Embedding(vocab_size, dim), nn.Linear(dim, vocab_size)

    def forward(self, idx):
        self.validate_input(idx)
        x = self.embed(idx).cumsum(1) / torch.arange(1, idx.shape[1] + 1)[None, :, None]  # (B, T, D)
        return 3 * self.head(x)  # (B, T, V)


# From 0: token 1 is likeliest (0.5) but leads to a flat row; token 2 (0.4) leads to 2 again with 0.9.
GREEDY_TRAP = BigramTable([[0.1, 0.5, 0.4], [1 / 3, 1 / 3, 1 / 3], [0.05, 0.05, 0.9]])


def test_greedy_misses_what_beam_and_exhaustive_find():
    best = exhaustive_search(GREEDY_TRAP, [0], 2)
    assert best.tokens == (2, 2) and math.isclose(best.log_prob, math.log(0.4 * 0.9), rel_tol=1e-5)
    greedy = beam_search(GREEDY_TRAP, [0], 2, beam_width=1)[0]
    assert greedy.tokens[0] == 1  # greedy takes the 0.5 first
    assert greedy.log_prob < best.log_prob
    assert beam_search(GREEDY_TRAP, [0], 2, beam_width=2)[0].tokens == (2, 2)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_wide_beam_equals_exhaustive_on_random_models(seed):
    model = HistoryMean(3, seed=seed).eval()
    n = 4
    best = exhaustive_search(model, [1], n)
    beam = beam_search(model, [1], n, beam_width=3 ** (n - 1))[0]  # wide enough to never prune the optimum
    assert beam.tokens == best.tokens
    assert math.isclose(beam.log_prob, best.log_prob, rel_tol=1e-5, abs_tol=1e-5)
    assert math.isclose(sequence_log_prob(model, torch.tensor([1]), torch.tensor(best.tokens)), best.log_prob, rel_tol=1e-5)
    # a narrower beam never beats the optimum, and its scores are sorted
    narrow = beam_search(model, [1], n, beam_width=2)
    assert narrow[0].log_prob <= best.log_prob + 1e-6
    assert [h.log_prob for h in narrow] == sorted((h.log_prob for h in narrow), reverse=True)


def test_stop_token_and_length_normalisation():
    model = TableLM(STOP_TABLE)  # from 1: stop at once (0.4) or 2, 3, stop (0.36)
    plain = exhaustive_search(model, [1], 5, stop_id=0)
    normalised = exhaustive_search(model, [1], 5, stop_id=0, length_norm=1.0)
    assert plain.tokens == (0,)  # the sum favours stopping early
    assert normalised.tokens == (2, 3, 0)  # GNMT's penalty lp = (5 + 3) / 6 lets the longer sentence win
    assert math.isclose(normalised.score(1.0), math.log(0.5 * 0.85 * 0.85) / (8 / 6), rel_tol=1e-5)
    for alpha, reference in ((0.0, plain), (1.0, normalised)):
        for cached in (True, False):
            beam = beam_search(model, [1], 5, beam_width=2, stop_id=0, length_norm=alpha, cached=cached)[0]
            assert beam.tokens == reference.tokens


def test_greedy_trap_needs_width_three():
    model = TableLM(TRAP_TABLE)
    best = exhaustive_search(model, [0], GREEDY_TRAP_LENGTH)
    found = [beam_search(model, [0], GREEDY_TRAP_LENGTH, beam_width=B)[0] for B in (1, 2, 3)]
    assert [hyp.tokens for hyp in found] == [(0, 0, 0, 0), (1, 0, 1, 0), (2, 2, 2, 2)] and best.tokens == (2, 2, 2, 2)
    assert found[0].log_prob < found[1].log_prob - 0.05 and found[1].log_prob < best.log_prob - 0.1
    assert math.isclose(found[2].log_prob, best.log_prob)


def _cut_margins(table: tuple, width: int, length: int) -> list[float]:
    """At each step of a beam search over a bigram table from token 0: kept worst minus pruned best (nats)."""
    beams, margins = [((0,), 0.0)], []
    for _ in range(length):
        candidates = sorted(((tokens + (b,), score + math.log(table[tokens[-1]][b])) for tokens, score in beams
                             for b in range(len(table))), key=lambda c: -c[1])
        if len(candidates) > width:
            margins.append(candidates[width - 1][1] - candidates[width][1])
        beams = candidates[:width]
    return margins


@pytest.mark.parametrize("width", [1, 2, 3])
def test_greedy_trap_has_no_tie_at_any_cut(width):
    assert min(_cut_margins(TRAP_TABLE, width, GREEDY_TRAP_LENGTH)) > 0.05


@pytest.mark.parametrize("kind", ["table", "history_mean", "transformer", "rnn", "learned_past_context"])
def test_cached_beam_search_equals_the_uncached_one(kind):
    torch.manual_seed(0)
    if kind == "table":
        model = TableLM(TRAP_TABLE)
    elif kind == "history_mean":
        model = HistoryMean(5, seed=1)
    elif kind == "rnn":
        model = RNNLM(RNNConfig(7, d_embed=8, d_hidden=16))
    else:
        model = TransformerLM(TransformerConfig(7, context_length=6 if kind.startswith("learned") else 32, n_layer=2,
                                                n_head=2, d_model=16,
                                                positional="learned" if kind.startswith("learned") else "rotary"))
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.mul_(4)  # sharper distributions: the beams differ
    prefix = [1, 2] if kind != "table" else [0]
    for width, stop in ((1, None), (3, None), (4, 0)):
        trace_a, trace_b = [], []
        a = beam_search(model, prefix, 8, beam_width=width, stop_id=stop, trace=trace_a)
        b = beam_search(model, prefix, 8, beam_width=width, stop_id=stop, cached=False, trace=trace_b)
        assert [h.tokens for h in a] == [h.tokens for h in b]
        assert all(math.isclose(x.log_prob, y.log_prob, rel_tol=1e-4, abs_tol=1e-4) for x, y in zip(a, b))
        assert [[c[0] for c in step] for step in trace_a] == [[c[0] for c in step] for step in trace_b]


def test_beam_trace_marks_the_survivors():
    trace = []
    beam_search(TableLM(TRAP_TABLE), [0], 3, beam_width=2, trace=trace)
    assert len(trace) == 3 and [len(step) for step in trace] == [3, 6, 6]
    assert all(sum(kept for _, _, kept in step) == 2 for step in trace[1:])
    assert all(score <= 0 for step in trace for _, score, _ in step)


def test_length_penalty_and_reorder_state():
    assert length_penalty(1, 0.0) == 1.0 and math.isclose(length_penalty(7, 1.0), 2.0)
    with pytest.raises(ValueError):
        length_penalty(3, -1.0)
    h = torch.arange(6.0).view(3, 2)
    assert reorder_state(h, torch.tensor([2, 2, 0])).tolist() == [[4, 5], [4, 5], [0, 1]]
    assert reorder_state(None, torch.tensor([0])) is None
    with pytest.raises(TypeError, match="reorder"):
        reorder_state(object(), torch.tensor([0]))


def test_hypothesis_score():
    h = Hypothesis((1, 2, 3, 4), -8.0)  # GNMT: lp(4) = ((5 + 4) / 6)**alpha = 1.5**alpha
    assert h.score() == -8.0 and math.isclose(h.score(1.0), -8.0 / 1.5) and math.isclose(h.score(2.0), -8.0 / 2.25)


def test_bad_search_input():
    with pytest.raises(ValueError, match="beam_width"):
        beam_search(GREEDY_TRAP, [0], 3, beam_width=0)
    with pytest.raises(ValueError, match="empty"):
        beam_search(GREEDY_TRAP, [], 3)
    with pytest.raises(ValueError, match="too many"):
        exhaustive_search(GREEDY_TRAP, [0], 20)
    short = BigramTable([[0.5, 0.5], [0.5, 0.5]], context_length=4)
    with pytest.raises(ValueError, match="context"):
        beam_search(short, [0] * 5, 2)
    with pytest.raises(ValueError, match="context"):
        generate(short, [0] * 5, 2)


def test_sequence_log_prob_beyond_the_context():
    model = BigramTable([[0.5, 0.5], [0.1, 0.9]], context_length=2)
    value = sequence_log_prob(model, torch.tensor([0]), torch.tensor([1, 1, 1, 0]))
    assert math.isclose(value, math.log(0.5 * 0.9 * 0.9 * 0.1), rel_tol=1e-5)


def test_metrics():
    assert distinct_n([[1, 2, 3, 4]], 2) == 1.0
    assert distinct_n([[1, 2, 1, 2], [1, 2]], 2) == pytest.approx(2 / 4)
    assert repetition([1, 2, 3, 4, 5], 2) == 0.0
    assert repetition([7] * 10, 2) == pytest.approx(1 - 1 / 9)
    with pytest.raises(ValueError, match="shorter"):
        distinct_n([[1]], 2)


def test_decode_and_compare():
    model = HistoryMean(5, seed=4).eval()
    methods = [DecodingMethod("greedy", temperature=0), DecodingMethod("sample"), DecodingMethod("beam 3", beam_width=3)]
    assert decode(model, [1], 6, methods[0]) == list(beam_search(model, [1], 6, 1)[0].tokens)
    rows = compare_decoders(model, [[1], [2], [3]], methods, max_new_tokens=12, seed=0)
    by_name = {row["method"]: row for row in rows}
    assert set(by_name) == {"greedy", "sample", "beam 3"}
    assert by_name["greedy"]["log_lik_per_token"] > by_name["sample"]["log_lik_per_token"]
    assert all(row["ms_per_token"] > 0 for row in rows)


def test_temperature_is_numerically_safe_and_tends_to_greedy():
    torch.manual_seed(0)
    logits = torch.randn(4, 50) * 30  # (B, V), large logits
    logits[0, 3] = float("-inf")  # an impossible token (n-gram log-probabilities)
    for t in (0.01, 0.1, 1.0, 10.0):
        probs = next_token_probs(logits, t)
        assert torch.isfinite(probs).all() and torch.allclose(probs.sum(-1), torch.ones(4))
        assert probs[0, 3] == 0
    cold = softmax_with_temperature(logits, 0.01)
    assert torch.equal(cold.argmax(-1), logits.argmax(-1)) and (cold.max(-1).values > 0.999).all()
    assert torch.equal(softmax_with_temperature(logits, 0), torch.nn.functional.one_hot(logits.argmax(-1), 50).float())
    hot = softmax_with_temperature(torch.randn(50), 1e4)
    assert torch.allclose(hot, torch.full((50,), 1 / 50), atol=1e-4)  # large T -> uniform
    generator = torch.Generator().manual_seed(0)
    assert torch.equal(sample_next(logits, 0.01, generator=generator), logits.argmax(-1))


def test_generation_at_low_temperature_equals_greedy():
    model = HistoryMean(6, seed=5).eval()
    greedy = generate(model, [1, 2], 10, temperature=0)
    cold = generate(model, [1, 2], 10, temperature=1e-3, generator=torch.Generator().manual_seed(1))
    assert torch.equal(greedy, cold)


@pytest.mark.parametrize("kwargs,match", [
    ({"temperature": -0.5}, "temperature"),
    ({"temperature": float("nan")}, "temperature"),
    ({"temperature": float("inf")}, "temperature"),
    ({"top_k": 0}, "top_k"),
    ({"top_k": 2.5}, "top_k"),
    ({"top_p": 0.0}, "top_p"),
    ({"top_p": 1.5}, "top_p"),
])
def test_bad_sampling_settings_fail_clearly(kwargs, match):
    with pytest.raises(ValueError, match=match):
        generate(GREEDY_TRAP, [0], 3, **kwargs)


def test_filters():
    logits = torch.tensor([[1.0, 3.0, 2.0, 0.0]])
    assert torch.isinf(top_k_filter(logits, 2)[0, [0, 3]]).all() and torch.isfinite(top_k_filter(logits, 2)[0, [1, 2]]).all()
    probs = torch.tensor([[0.5, 0.3, 0.15, 0.05]])
    kept = torch.isfinite(top_p_filter(probs.log(), 0.8))[0]
    assert kept.tolist() == [True, True, False, False]
    assert torch.isfinite(top_p_filter(probs.log(), 1.0)).all()
    tied = torch.zeros(1, 64)  # 64 equal logits; p = 0.5 keeps 32 of them: the lower ids, as the browser's sort does
    assert torch.isfinite(top_p_filter(tied, 0.5))[0].tolist() == [True] * 32 + [False] * 32


def test_beam_step():
    scores = torch.tensor([-1.0, -0.5])
    log_probs = torch.tensor([[-0.1, -2.0, -3.0], [-1.0, -0.2, -5.0]]).log_softmax(-1)
    values, parents, tokens = beam_step(scores, log_probs, 3)
    totals = (scores[:, None] + log_probs).flatten()
    assert torch.allclose(values, totals.sort(descending=True).values[:3])
    assert torch.allclose(scores[parents] + log_probs[parents, tokens], values)
    with pytest.raises(ValueError, match="expected scores"):
        beam_step(scores, log_probs[0], 2)
