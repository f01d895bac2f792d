"""Search-based decoding and how to compare decoders.

Beam search keeps the `beam_width` best partial continuations by summed log-probability,
expands each by every token, and keeps the best `beam_width` again. With length
normalisation (Wu et al. 2016, GNMT, eq. 14) a hypothesis is ranked by
log p / lp(length), lp(L) = ((5 + L) / 6)**alpha. The search runs incrementally through the
model's start_state()/step() (the KV cache for a Transformer): after each step the beams'
states are reordered by parent beam (`reorder_state`). Exhaustive search
enumerates every continuation (tiny models only) and is the reference beam search is
checked against. The metrics compare decoders: log-likelihood under the model, the share
of distinct n-grams across samples (diversity), repetition inside a sample, time per token.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from utils.i18n.text import tr
from utils.interface import LanguageModel
from utils.sampling import generate


@dataclass(frozen=True)
class Hypothesis:
    """One continuation found by a search: its new tokens and their summed log-probability."""

    tokens: tuple[int, ...]  # the generated tokens (without the prefix)
    log_prob: float  # sum of log p(token | history) over `tokens`
    finished: bool = False  # ended with the stop token

    def score(self, length_norm: float = 0.0) -> float:
        """Ranking score log_prob / lp, GNMT's length penalty lp = ((5 + len) / 6)**length_norm (0: the plain sum)."""
        return self.log_prob / length_penalty(len(self.tokens), length_norm)


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's length penalty lp(Y) = ((5 + |Y|) / (5 + 1))**alpha (Wu et al. 2016, eq. 14); 1 for alpha = 0."""
    if alpha < 0 or length < 0:
        raise ValueError(f"alpha and length must be >= 0, got {alpha} and {length}")
    return ((5 + length) / 6) ** alpha


def reorder_state(state, index: torch.Tensor):
    """Rows `index` (N,) of a generation state, in that order: each new beam takes its parent's state.

    Handles the course's states: None (nothing kept), a tensor with the batch first (an RNN's h, the
    history kept by the default step()), an object with reorder() (the Transformer's KV caches), and
    tuples or lists of these.
    """
    if state is None:
        return None
    if isinstance(state, torch.Tensor):
        return state.index_select(0, index.to(state.device))  # (N, ...)
    if hasattr(state, "reorder"):
        return state.reorder(index.to(getattr(state, "device", index.device)))
    if isinstance(state, (tuple, list)):
        return type(state)(reorder_state(part, index) for part in state)
    raise TypeError(f"cannot reorder a generation state of type {type(state).__name__}; give it a reorder(index) method")


def _prefix_tensor(model: LanguageModel, prefix: Sequence[int] | torch.Tensor) -> torch.Tensor:
    ids = torch.as_tensor(prefix, dtype=torch.long, device=model.device).flatten()  # (T,)
    if ids.numel() == 0:
        raise ValueError("the prefix is empty: give at least one token (e.g. the boundary token)")
    if model.context_length is not None and ids.numel() > model.context_length:
        raise ValueError(
            f"the prefix has {ids.numel()} tokens, more than the model's context of {model.context_length}; "
            f"shorten it to the last {model.context_length} tokens"
        )
    model.validate_input(ids[None])
    return ids


@torch.no_grad()
def next_log_probs(model: LanguageModel, histories: torch.Tensor) -> torch.Tensor:
    """log p(next token | history) for each row of `histories` (N, T) -> (N, V), cropped to the context."""
    if model.context_length is not None:
        histories = histories[:, -model.context_length :]  # (N, <=ctx)
    return F.log_softmax(model(histories)[:, -1, :].float(), dim=-1)  # (N, V)


def _check_search(beam_width: int, max_new_tokens: int, length_norm: float) -> None:
    if not isinstance(beam_width, int) or beam_width < 1:
        raise ValueError(tr("beam_width must be an integer >= 1, got {value!r}", value=beam_width))
    if max_new_tokens < 0:
        raise ValueError(tr("max_new_tokens must be >= 0, got {value}", value=max_new_tokens))
    if length_norm < 0:
        raise ValueError(tr("length_norm (alpha) must be >= 0, got {value}", value=length_norm))


def beam_step(scores: torch.Tensor, log_probs: torch.Tensor, width: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One expansion: the `width` best (beam, token) pairs by score + log p; scores (N,), log_probs (N, V).

    Returns their summed scores (W,), best first, the beam each extends (W,) and the token it adds (W,).
    """
    if scores.dim() != 1 or log_probs.dim() != 2 or log_probs.shape[0] != scores.shape[0]:
        raise ValueError(f"expected scores (N,) and log_probs (N, V), got {tuple(scores.shape)} and {tuple(log_probs.shape)}")
    totals = scores[:, None] + log_probs  # (N, V)
    best = torch.topk(totals.flatten(), min(width, totals.numel()))  # (W,)
    vocab = log_probs.shape[1]
    return best.values, best.indices // vocab, best.indices % vocab


@torch.no_grad()
def beam_search(
    model: LanguageModel,
    prefix: Sequence[int] | torch.Tensor,
    max_new_tokens: int,
    beam_width: int = 4,
    length_norm: float = 0.0,
    stop_id: int | None = None,
    cached: bool = True,
    trace: list | None = None,
) -> list[Hypothesis]:
    """Beam search of width B: the best hypotheses found, best first (at most B of them).

    Each step scores every (beam, token) pair by summed log-probability and walks them best
    first: a pair that ends in `stop_id` goes to the finished list, any other joins the beam,
    until the beam holds B (pairs ranked below that are dropped, finished or not). Finished and
    alive hypotheses are ranked at the end by Hypothesis.score(length_norm).
    cached=True feeds only each beam's new token to model.step() and reorders the states by
    parent; cached=False re-runs every beam's whole history each step (the reference).
    trace: if a list is given, one entry per step is appended: every candidate as
    (tokens, summed log p, kept) with kept True for the B survivors.
    """
    _check_search(beam_width, max_new_tokens, length_norm)
    was_training = model.training
    model.eval()
    prefix_ids = _prefix_tensor(model, prefix)  # (T,)
    alive = [Hypothesis((), 0.0)]
    finished: list[Hypothesis] = []
    state = None
    if cached:
        logits, state = model.step(prefix_ids[None], model.start_state(1))  # (1, V)
        log_probs = F.log_softmax(logits.float(), dim=-1)  # (1, V)
    for step in range(max_new_tokens):
        if not cached:
            histories = torch.stack([torch.cat([prefix_ids, prefix_ids.new_tensor(h.tokens)]) for h in alive])  # (N, T+t)
            log_probs = next_log_probs(model, histories)  # (N, V)
        scores = torch.tensor([h.log_prob for h in alive], device=log_probs.device)  # (N,)
        width = log_probs.numel() if trace is not None else 2 * beam_width  # stop tokens may take slots
        values, parents, tokens = beam_step(scores, log_probs, width)
        survivors, survivor_parents, seen = [], [], []
        for value, parent, token in zip(values.tolist(), parents.tolist(), tokens.tolist()):
            if value == -math.inf:
                break
            hypothesis = Hypothesis(alive[parent].tokens + (token,), value, token == stop_id)
            kept = False
            if len(survivors) < beam_width:  # only candidates ranked above the B-th survivor count
                if hypothesis.finished:
                    finished.append(hypothesis)
                else:
                    survivors.append(hypothesis)
                    survivor_parents.append(parent)
                    kept = True
            elif trace is None:
                break
            seen.append((hypothesis.tokens, value, kept))
        if trace is not None:
            trace.append(seen)
        alive = survivors
        if not alive or step == max_new_tokens - 1:
            break
        if cached:
            index = torch.tensor(survivor_parents, device=prefix_ids.device)  # (N,)
            state = reorder_state(state, index)
            new = prefix_ids.new_tensor([h.tokens[-1] for h in alive])[:, None]  # (N, 1)
            logits, state = model.step(new, state)  # (N, V)
            log_probs = F.log_softmax(logits.float(), dim=-1)
    model.train(was_training)
    ranked = sorted(finished + alive, key=lambda h: h.score(length_norm), reverse=True)
    return ranked[:beam_width]


@torch.no_grad()
def exhaustive_search(
    model: LanguageModel,
    prefix: Sequence[int] | torch.Tensor,
    max_new_tokens: int,
    length_norm: float = 0.0,
    stop_id: int | None = None,
    max_candidates: int = 200_000,
) -> Hypothesis:
    """The most likely continuation of up to `max_new_tokens` tokens, by enumerating every one (tiny models only)."""
    _check_search(1, max_new_tokens, length_norm)
    vocab = model.vocab_size
    if vocab**max_new_tokens > max_candidates:
        raise ValueError(
            f"{vocab}**{max_new_tokens} = {vocab**max_new_tokens} continuations is too many to enumerate "
            f"(limit {max_candidates}); use fewer tokens or a smaller vocabulary"
        )
    was_training = model.training
    model.eval()
    prefix_ids = _prefix_tensor(model, prefix)
    best: Hypothesis | None = None
    shortest = 1 if stop_id is not None else max_new_tokens  # without a stop token every sequence is full length
    for length in range(shortest, max_new_tokens + 1):
        candidates = [tokens for tokens in itertools.product(range(vocab), repeat=length)
                      if not (stop_id is not None and stop_id in tokens[:-1])  # nothing follows a stop token
                      and (length == max_new_tokens or tokens[-1] == stop_id)]  # shorter ones count only when finished
        for tokens, log_prob in zip(candidates, _log_probs_of_continuations(model, prefix_ids, candidates)):
            candidate = Hypothesis(tokens, log_prob, tokens[-1] == stop_id)
            if best is None or candidate.score(length_norm) > best.score(length_norm):
                best = candidate
    model.train(was_training)
    if best is None:
        raise ValueError("max_new_tokens must be >= 1 for an exhaustive search")
    return best


@torch.no_grad()
def _log_probs_of_continuations(model: LanguageModel, prefix: torch.Tensor, candidates: list[tuple[int, ...]],
                                chunk: int = 2048) -> list[float]:
    """sequence_log_prob of each equal-length continuation, scored in batches when the whole sequence fits the context."""
    if not candidates:
        return []
    n, context = len(candidates[0]), model.context_length
    if context is not None and prefix.numel() + n - 1 > context:
        return [sequence_log_prob(model, prefix, torch.tensor(tokens)) for tokens in candidates]
    scores: list[float] = []
    for start in range(0, len(candidates), chunk):
        continuation = torch.tensor(candidates[start : start + chunk], device=prefix.device)  # (N, n)
        ids = torch.cat([prefix.expand(len(continuation), -1), continuation], dim=1)  # (N, T + n)
        log_probs = F.log_softmax(model(ids[:, :-1]).float(), dim=-1)[:, -n:]  # (N, n, V)
        scores += log_probs.gather(-1, continuation[..., None]).squeeze(-1).sum(dim=1).tolist()  # (N,)
    return scores


@torch.no_grad()
def sequence_log_prob(model: LanguageModel, prefix: torch.Tensor, continuation: torch.Tensor) -> float:
    """Sum of log p(continuation[t] | prefix, continuation[:t]) under `model` (1-D tensors of ids)."""
    prefix = torch.as_tensor(prefix, dtype=torch.long, device=model.device).flatten()
    continuation = torch.as_tensor(continuation, dtype=torch.long, device=model.device).flatten()
    if continuation.numel() == 0:
        return 0.0
    ids = torch.cat([prefix, continuation])  # (T + n,)
    n, context = continuation.numel(), model.context_length
    if context is None or ids.numel() - 1 <= context:
        log_probs = F.log_softmax(model(ids[None, :-1])[0].float(), dim=-1)  # (T+n-1, V)
        picked = log_probs[-n:].gather(-1, continuation[:, None])  # (n, 1)
        return float(picked.sum())
    total = 0.0  # longer than the context: score each token from its last `context` tokens
    for position in range(prefix.numel(), ids.numel()):
        window = ids[max(0, position - context) : position][None]  # (1, <=ctx)
        total += float(F.log_softmax(model(window)[0, -1].float(), dim=-1)[ids[position]])
    return total


def ngrams(tokens: Sequence, n: int) -> list[tuple]:
    """All n-grams of a sequence, in order."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    tokens = list(tokens)
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def distinct_n(samples: Sequence[Sequence], n: int = 2) -> float:
    """Diversity: distinct n-grams / all n-grams, pooled over the samples (1: no n-gram repeats)."""
    pooled = [gram for sample in samples for gram in ngrams(sample, n)]
    if not pooled:
        raise ValueError(f"the samples are shorter than n = {n}: nothing to count")
    return len(set(pooled)) / len(pooled)


def repetition(sample: Sequence, n: int = 4) -> float:
    """Share of the n-grams of one sample that already occurred earlier in it (0: none repeat; loops -> 1)."""
    grams = ngrams(sample, n)
    if not grams:
        return 0.0
    return 1.0 - len(set(grams)) / len(grams)


@dataclass(frozen=True)
class DecodingMethod:
    """A decoding method: sampling settings (temperature 0 = greedy), or beam search when beam_width is set."""

    name: str
    temperature: float = 1.0
    top_k: int | None = None
    top_p: float | None = None
    beam_width: int | None = None
    length_norm: float = 0.0

    @property
    def deterministic(self) -> bool:
        """Greedy and beam search give the same output every time."""
        return self.beam_width is not None or self.temperature == 0


def decode(
    model: LanguageModel,
    prefix: Sequence[int] | torch.Tensor,
    max_new_tokens: int,
    method: DecodingMethod,
    generator: torch.Generator | None = None,
    stop_id: int | None = None,
) -> list[int]:
    """The new tokens `method` produces after `prefix`."""
    if method.beam_width is not None:
        best = beam_search(model, prefix, max_new_tokens, method.beam_width, method.length_norm, stop_id)[0]
        return list(best.tokens)
    prefix_ids = _prefix_tensor(model, prefix)
    out = generate(model, prefix_ids, max_new_tokens, method.temperature, method.top_k, method.top_p, generator, stop_id)
    return out[0, prefix_ids.numel() :].tolist()


def compare_decoders(
    model: LanguageModel,
    prefixes: Sequence[Sequence[int]],
    methods: Sequence[DecodingMethod],
    max_new_tokens: int,
    seed: int = 0,
    distinct_order: int = 2,
    repetition_order: int = 4,
    on_sample: Callable[[str, list[int]], None] | None = None,
) -> list[dict]:
    """One row per method: mean log-likelihood per token, distinct-n share, repetition, ms per token.

    Every method continues every prefix once (deterministic methods) on the same model, so
    the numbers are side by side; log-likelihood is that of the generated tokens under the model.
    """
    rows = []
    for method in methods:
        generator = torch.Generator(device="cpu").manual_seed(seed)
        samples, log_likelihood, tokens, seconds = [], 0.0, 0, 0.0
        for prefix in prefixes:
            start = time.perf_counter()
            new = decode(model, prefix, max_new_tokens, method, generator)
            seconds += time.perf_counter() - start
            samples.append(new)
            log_likelihood += sequence_log_prob(model, torch.as_tensor(prefix), torch.as_tensor(new))
            tokens += len(new)
            if on_sample is not None:
                on_sample(method.name, new)
        rows.append(
            {
                "method": method.name,
                "log_lik_per_token": log_likelihood / max(tokens, 1),
                f"distinct_{distinct_order}": distinct_n(samples, distinct_order),
                f"repetition_{repetition_order}": sum(repetition(s, repetition_order) for s in samples) / len(samples),
                "ms_per_token": 1000 * seconds / max(tokens, 1),
            }
        )
    return rows
