"""Turning next-token logits into tokens: temperature, top-k, top-p (nucleus), greedy; and generate().

Temperature T divides the logits before the softmax: T -> 0 approaches argmax (T = 0 is
accepted and means greedy), large T approaches uniform. Filters set the logits of removed
tokens to -inf, so the softmax renormalises over the kept ones.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.nn.functional as F

from utils.i18n.text import tr
from utils.interface import LanguageModel


def _check_temperature(temperature: float) -> None:
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not 0 <= temperature < float("inf"):
        raise ValueError(tr("temperature must be a finite number >= 0 (0 means greedy), got {value!r}", value=temperature))


def _scale(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """(logits - max) / T in float32: <= 0 everywhere, so no overflow for any T > 0; -inf stays -inf."""
    logits = logits.float()
    top = logits.max(dim=-1, keepdim=True).values  # (..., 1)
    top = torch.where(torch.isfinite(top), top, torch.zeros_like(top))
    return (logits - top) / temperature


def softmax_with_temperature(logits: torch.Tensor, temperature: float = 1.0) -> torch.Tensor:
    """Probabilities e^(x_i/T) / sum_j e^(x_j/T) over the last dimension; T = 0 gives the argmax one-hot."""
    _check_temperature(temperature)
    logits = logits.float()
    if temperature == 0:
        return F.one_hot(logits.argmax(dim=-1), logits.size(-1)).to(logits.dtype)
    return F.softmax(_scale(logits, temperature), dim=-1)


def top_k_filter(logits: torch.Tensor, k: int) -> torch.Tensor:
    """Keep the k largest logits in the last dimension, set the rest to -inf."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(tr("top_k must be an integer >= 1, got {value!r}", value=k))
    k = min(k, logits.size(-1))
    kth_largest = torch.topk(logits, k, dim=-1).values[..., -1:]  # (..., 1)
    return logits.masked_fill(logits < kth_largest, float("-inf"))


def top_p_filter(logits: torch.Tensor, p: float) -> torch.Tensor:
    """Keep the smallest set of most likely tokens whose probability sums to at least p; -inf for the rest."""
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p <= 1:
        raise ValueError(tr("top_p must lie in (0, 1], got {value!r}", value=p))
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True, stable=True)  # (..., V); ties: lower id first
    cumulative = F.softmax(sorted_logits.float(), dim=-1).cumsum(dim=-1)  # (..., V)
    remove_sorted = cumulative - F.softmax(sorted_logits.float(), dim=-1) >= p  # mass before this token already >= p
    remove = remove_sorted.scatter(-1, order, remove_sorted)  # back to vocabulary order
    return logits.masked_fill(remove, float("-inf"))


def next_token_probs(
    logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None
) -> torch.Tensor:
    """The sampling distribution after temperature, then top-k, then top-p. logits (..., V) -> probs (..., V)."""
    _check_temperature(temperature)
    if temperature == 0:
        return softmax_with_temperature(logits, 0)
    scaled = _scale(logits, temperature)  # (..., V)
    if top_k is not None:
        scaled = top_k_filter(scaled, top_k)
    if top_p is not None:
        scaled = top_p_filter(scaled, top_p)
    return F.softmax(scaled, dim=-1)


def sample_next(
    logits: torch.Tensor,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    generator: torch.Generator | None = None,
) -> torch.Tensor:
    """Draw one token per row from logits (B, V) -> ids (B,); temperature 0 is greedy (argmax)."""
    _check_temperature(temperature)
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = next_token_probs(logits, temperature, top_k, top_p)  # (B, V)
    if generator is not None and generator.device != probs.device:
        probs_for_draw = probs.to(generator.device)
        return torch.multinomial(probs_for_draw, 1, generator=generator).squeeze(-1).to(probs.device)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


@torch.no_grad()
def generate(
    model: LanguageModel,
    prefix: Sequence[int] | torch.Tensor,
    max_new_tokens: int,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    generator: torch.Generator | None = None,
    stop_id: int | None = None,
) -> torch.Tensor:
    """Continue `prefix` (T,) or (B, T) by up to `max_new_tokens` tokens; returns (B, T + new) ids.

    Uses the model's start_state()/step(), so models with a hidden state or a KV cache
    generate incrementally. Generation stops early once every row has produced `stop_id`.
    """
    if max_new_tokens < 0:
        raise ValueError(tr("max_new_tokens must be >= 0, got {value}", value=max_new_tokens))
    idx = torch.as_tensor(prefix, dtype=torch.long, device=model.device)
    if idx.dim() == 1:
        idx = idx.unsqueeze(0)  # (1, T)
    if idx.shape[1] == 0:
        raise ValueError(tr("the prefix is empty: give at least one token (e.g. the boundary token)"))
    if model.context_length is not None and idx.shape[1] > model.context_length:
        raise ValueError(tr("the prefix has {length} tokens, more than the model's context of {context}; shorten it to "
                            "the last {context} tokens", length=idx.shape[1], context=model.context_length))
    model.validate_input(idx)
    _check_temperature(temperature)
    if top_k is not None:
        top_k_filter(idx.new_zeros(1, 2, dtype=torch.float), top_k)  # fail early on a bad k
    if top_p is not None:
        top_p_filter(idx.new_zeros(1, 2, dtype=torch.float), top_p)  # fail early on a bad p
    was_training = model.training
    model.eval()
    state = model.start_state(idx.shape[0])
    logits, state = model.step(idx, state)  # (B, V)
    finished = torch.zeros(idx.shape[0], dtype=torch.bool, device=idx.device)
    for _ in range(max_new_tokens):
        next_ids = sample_next(logits, temperature, top_k, top_p, generator)  # (B,)
        idx = torch.cat([idx, next_ids[:, None]], dim=1)  # (B, T+1)
        if stop_id is not None:
            finished |= next_ids == stop_id
            if bool(finished.all()):
                break
        logits, state = model.step(next_ids[:, None], state)
    model.train(was_training)
    return idx


def generate_text(
    model: LanguageModel,
    tokenizer,
    prefix: str,
    max_new_tokens: int,
    **sampling,
) -> str:
    """generate() from a text prefix, decoded back to text (items: framed, stops at the boundary)."""
    boundary = tokenizer.boundary
    ids = ([tokenizer.boundary_id] if boundary is not None else []) + tokenizer.encode(prefix)
    if boundary is not None:
        sampling.setdefault("stop_id", tokenizer.boundary_id)
    out = generate(model, ids, max_new_tokens, **sampling)[0].tolist()
    if boundary is not None:
        out = out[1:]
        stop = sampling.get("stop_id")
        if stop in out[len(ids) - 1 :]:
            out = out[: out.index(stop, len(ids) - 1)]
    return tokenizer.decode(out)
