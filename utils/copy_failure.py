"""The copy failure: the same Transformer trained with and without the causal mask, and how to measure what went wrong.

Without the mask, position i can read token i+1, which is exactly its target, so training
and validation losses fall far below the masked model's; at generation time the next token
does not exist yet, and the samples are garbage. These helpers train the pair on the same
batches and measure the three symptoms.

The 2 x 2 experiment (notebook 08, section 5, and its widget): each model run with and without
the mask (`with_mask`), keyed (trained, evaluated). Per cell: the teacher-forced loss of
validation windows (`grid_losses`), the attention map on a prefix (`grid_maps`), and samples with
their generation-time loss under a judge that is neither model, a Kneser-Ney n-gram counted on the
training text (`fit_judge`, `judge_samples`, `grid_samples`).
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass, replace

import torch

from utils.batching import batch_sampler
from utils.dataset import Dataset
from utils.i18n.text import tr
from utils.interface import LanguageModel
from utils.ngram import NGramLM
from utils.sampling import generate
from utils.training import TrainConfig, TrainHistory, train
from utils.transformer import TransformerConfig, TransformerLM


@dataclass
class TrainedPair:
    """Both models and their loss curves, keyed "masked" / "unmasked"."""

    models: dict[str, TransformerLM]
    histories: dict[str, TrainHistory]


def train_masked_and_unmasked(
    dataset: Dataset, model_config: dict, train_config: TrainConfig, batch_size: int, seed: int = 0
) -> TrainedPair:
    """Train TransformerLM(causal=True) and TransformerLM(causal=False) from the same initial weights on the same batches."""
    models, histories = {}, {}
    block = model_config["context_length"]
    for name, causal in (("masked", True), ("unmasked", False)):
        torch.manual_seed(seed)
        model = TransformerLM(TransformerConfig(dataset.vocab_size, causal=causal, **model_config))
        model.use_kv_cache = causal  # a cache assumes past tokens never change: only true with the mask
        train_batches = batch_sampler(dataset.train, batch_size, block, generator=torch.Generator().manual_seed(seed))
        val_batches = batch_sampler(dataset.val, batch_size, block, generator=torch.Generator().manual_seed(seed + 1))
        histories[name] = train(model, train_batches, train_config, val_batches)
        models[name] = model.eval()
    return TrainedPair(models, histories)


def mean_attention(model: TransformerLM, ids: torch.Tensor, layer: int = -1) -> torch.Tensor:
    """Attention weights of one layer for a 1-D id sequence, averaged over heads: (T, T)."""
    with torch.no_grad():
        _, weights = model.forward_with_attention(ids[None].to(model.device))
    return weights[layer][0].mean(0).cpu()  # (T, T)


def next_position_share(weights: torch.Tensor) -> float:
    """Share of query rows i < T-1 whose largest attention weight is on key i+1 (one step into the future)."""
    if weights.dim() != 2 or weights.shape[0] != weights.shape[1] or weights.shape[0] < 2:
        raise ValueError(f"expected a square (T, T) attention matrix with T >= 2, got shape {tuple(weights.shape)}")
    T = weights.shape[0]
    return float((weights[:-1].argmax(dim=-1) == torch.arange(1, T)).float().mean())


def sample_continuations(
    model: TransformerLM, prefix: Sequence[int], n_samples: int, length: int, seed: int = 0
) -> list[list[int]]:
    """n_samples sampled continuations (T = 1) of `length` tokens after `prefix`."""
    generator = torch.Generator().manual_seed(seed)
    out = generate(model, torch.tensor([list(prefix)] * n_samples), length, generator=generator)  # (N, P + length)
    return out[:, len(prefix) :].tolist()


@torch.no_grad()
def generation_time_nll(model: LanguageModel, windows: Sequence[Sequence[int]], score_from: int = 1) -> float:
    """Mean NLL per token when each token is predicted from the tokens before it only, as in generation.

    Runs step() one token at a time on the re-run-the-history path, so even an unmasked model
    never sees a token it is asked to predict. Tokens at indices >= score_from are scored (1: all
    but the first; len(prefix): only what was generated after a prefix). Any LanguageModel works
    (an n-gram too: `judge_samples` uses one to score sampled text).
    """
    if score_from < 1:
        raise ValueError(f"score_from must be at least 1 (the first token has no history), got {score_from}")
    has_cache = hasattr(model, "use_kv_cache")
    use_cache = model.use_kv_cache if has_cache else None
    if has_cache:
        model.use_kv_cache = False
    total, count = 0.0, 0
    try:
        for window in windows:
            ids = torch.as_tensor(window, dtype=torch.long, device=model.device)[None]  # (1, T)
            state = model.start_state(1)
            for t in range(ids.shape[1] - 1):
                logits, state = model.step(ids[:, t : t + 1], state)  # (1, V): sees ids[:, :t+1] only
                if t + 1 >= score_from:
                    total -= float(torch.log_softmax(logits.float(), dim=-1)[0, ids[0, t + 1]])
                    count += 1
    finally:
        if has_cache:
            model.use_kv_cache = use_cache
    if count == 0:
        raise ValueError("every window needs at least two tokens" if score_from == 1
                         else f"no window has a token at index {score_from} or later to score")
    return total / count


@torch.no_grad()
def teacher_forced_nll(model: TransformerLM, windows: Sequence[Sequence[int]]) -> float:
    """Mean NLL per token of the same windows as generation_time_nll, in one forward pass (as training scores them).

    Each window w of length T is fed as w[:-1] at once and scored on w[1:]: position t predicts
    w[t+1] while, without the causal mask, it can also read w[t+1 .. T-2].
    """
    lengths = {len(window) for window in windows}
    if len(lengths) != 1 or min(lengths) < 2:
        raise ValueError(f"teacher forcing needs windows of one common length >= 2, got lengths {sorted(lengths)}")
    ids = torch.as_tensor([list(window) for window in windows], dtype=torch.long, device=model.device)  # (N, T)
    log_probs = torch.log_softmax(model(ids[:, :-1]).float(), dim=-1)  # (N, T-1, V)
    picked = log_probs.gather(-1, ids[:, 1:, None]).squeeze(-1)  # (N, T-1): log p(w[t+1] | input)
    return float(-picked.double().mean())


# ---------------------------------------------------------------- the 2 x 2 experiment: trained x evaluated with or without the mask

MASK_SETTINGS = ("masked", "unmasked")  # trained (or evaluated) with the causal mask, or without it


def with_mask(model: TransformerLM, masked: bool) -> TransformerLM:
    """A copy of `model` (same weights) whose attention uses the causal mask if `masked`, whatever it was trained with.

    Without the mask the copy has no KV cache: generation re-runs the history, so earlier
    tokens see later ones, as the unmasked model saw them in training.
    """
    copy = deepcopy(model).eval()
    copy.config = replace(model.config, causal=masked)
    for block in copy.blocks:
        block.causal = masked
    copy.use_kv_cache = masked and model.use_kv_cache
    return copy


def fit_judge(dataset: Dataset, n: int = 3) -> NGramLM:
    """The referee that scores sampled text: a Kneser-Ney n-gram counted on the training split (neither Transformer)."""
    return NGramLM.fit(dataset.train, dataset.vocab_size, n=n)


def judge_samples(judge: LanguageModel, prefix: Sequence[int], continuations: Sequence[Sequence[int]]) -> float:
    """Generation-time NLL (nats per token) the judge gives the continuations, each scored after `prefix`."""
    if not prefix:
        raise ValueError("the prefix is empty: the judge scores what comes after at least one token")
    windows = [list(prefix) + list(c) for c in continuations]
    if not isinstance(judge, NGramLM) or len({len(w) for w in windows}) != 1:
        return generation_time_nll(judge, windows, score_from=len(prefix))
    # an n-gram reads only the n-1 tokens before each position, so one forward pass gives the same
    # numbers as generation_time_nll's token-by-token loop (tests/test_widget_mask.py holds them equal)
    ids = torch.tensor(windows, dtype=torch.long)  # (N, P + L)
    if ids.shape[1] <= len(prefix):
        raise ValueError("the continuations are empty: nothing to score")
    log_probs = judge(ids[:, :-1])  # (N, P + L - 1, V): position t predicts ids[:, t + 1]
    picked = log_probs.gather(-1, ids[:, 1:, None]).squeeze(-1)[:, len(prefix) - 1 :]  # (N, L)
    return float(-picked.double().mean())


@dataclass
class GridCell:
    """One cell of the 2 x 2 mask experiment: a model trained one way, run (scored, generating) one way."""

    trained: str  # "masked" or "unmasked": how the weights were trained
    evaluated: str  # "masked" or "unmasked": the attention it runs with here
    teacher_forced: float  # NLL per token of the validation windows, one forward pass with this cell's attention
    sample_nll: float  # the judge's generation-time NLL of this cell's samples (nats per token)
    tokens: list[str]  # the prefix's symbols (the attention map's axes)
    attention: torch.Tensor  # (T, T): last layer, mean over heads, on the prefix
    next_share: float  # share of the map's rows whose largest weight is one step ahead
    samples: list[str]  # continuations of the prefix sampled at temperature 1


def grid_losses(models: dict[str, TransformerLM], windows: Sequence[Sequence[int]]) -> dict[tuple[str, str], float]:
    """Teacher-forced NLL of the windows for every (trained, evaluated) pair: the part of the grid no prefix changes."""
    _check_pair(models)
    return {(trained, evaluated): teacher_forced_nll(with_mask(models[trained], evaluated == "masked"), windows)
            for trained in MASK_SETTINGS for evaluated in MASK_SETTINGS}


def grid_maps(
    models: dict[str, TransformerLM], tokenizer, prefix: str, max_prefix: int = 48
) -> dict[tuple[str, str], tuple[list[str], torch.Tensor, float]]:
    """Per (trained, evaluated): the prefix's symbols, the attention map (T, T) and its look-ahead share (one forward each)."""
    _check_pair(models)
    prefix = _checked_prefix(prefix, max_prefix)
    ids = torch.tensor(tokenizer.encode(prefix))  # (T,): the tokenizer names any character it does not know
    tokens = list(tokenizer.split(prefix))
    maps = {}
    for trained in MASK_SETTINGS:
        for evaluated in MASK_SETTINGS:
            attention = mean_attention(with_mask(models[trained], evaluated == "masked"), ids)  # (T, T)
            maps[trained, evaluated] = tokens, attention, next_position_share(attention) if len(ids) > 1 else 0.0
    return maps


def grid_samples(
    models: dict[str, TransformerLM], judge: LanguageModel, tokenizer, prefix: str, n_samples: int = 8,
    length: int = 60, seed: int = 0, max_prefix: int = 48,
) -> dict[tuple[str, str], tuple[list[str], float]]:
    """Per (trained, evaluated): samples of `prefix` (temperature 1, same seed in every cell) and the judge's NLL of them."""
    _check_pair(models)
    ids = tokenizer.encode(_checked_prefix(prefix, max_prefix))
    samples = {}
    for trained in MASK_SETTINGS:
        for evaluated in MASK_SETTINGS:
            continuations = sample_continuations(with_mask(models[trained], evaluated == "masked"), ids, n_samples,
                                                 length, seed=seed)
            samples[trained, evaluated] = [tokenizer.decode(c) for c in continuations], judge_samples(judge, ids, continuations)
    return samples


def grid_prefix_views(
    models: dict[str, TransformerLM], judge: LanguageModel, tokenizer, prefix: str, losses: dict[tuple[str, str], float],
    n_samples: int = 8, length: int = 60, seed: int = 0, max_prefix: int = 48,
) -> dict[tuple[str, str], GridCell]:
    """The four cells for one prefix: attention map, samples and their judged NLL, next to the given teacher-forced losses."""
    maps = grid_maps(models, tokenizer, prefix, max_prefix)
    samples = grid_samples(models, judge, tokenizer, prefix, n_samples, length, seed, max_prefix)
    return {key: GridCell(key[0], key[1], losses[key], samples[key][1], *maps[key], samples[key][0]) for key in maps}


def mask_grid(
    models: dict[str, TransformerLM], judge: LanguageModel, tokenizer, windows: Sequence[Sequence[int]], prefix: str,
    **kwargs,
) -> dict[tuple[str, str], GridCell]:
    """The whole 2 x 2 experiment, keyed (trained, evaluated): losses on `windows`, maps and samples for `prefix`."""
    return grid_prefix_views(models, judge, tokenizer, prefix, grid_losses(models, windows), **kwargs)


def _checked_prefix(prefix: str, max_prefix: int) -> str:
    """The prefix's last max_prefix characters; ValueError when it is empty."""
    if not isinstance(prefix, str) or not prefix:
        raise ValueError(tr("the prefix is empty: type at least one character"))
    return prefix[-max_prefix:]


def _check_pair(models: dict) -> None:
    if set(models) != set(MASK_SETTINGS):
        raise ValueError(f"give models for exactly the keys 'masked' and 'unmasked', got {sorted(models)}")
