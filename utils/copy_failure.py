"""The copy failure: the same Transformer trained with and without the causal mask, and how to measure what went wrong.

Without the mask, position i can read token i+1, which is exactly its target, so training
and validation losses fall far below the masked model's; at generation time the next token
does not exist yet, and the samples are garbage. These helpers train the pair on the same
batches and measure the three symptoms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from utils.batching import batch_sampler
from utils.dataset import Dataset
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
def generation_time_nll(model: TransformerLM, windows: Sequence[Sequence[int]]) -> float:
    """Mean NLL per token when each token is predicted from the tokens before it only, as in generation.

    Runs step() one token at a time on the re-run-the-history path, so even an unmasked model
    never sees a token it is asked to predict.
    """
    use_cache, model.use_kv_cache = model.use_kv_cache, False
    total, count = 0.0, 0
    try:
        for window in windows:
            ids = torch.as_tensor(window, dtype=torch.long, device=model.device)[None]  # (1, T)
            state = model.start_state(1)
            for t in range(ids.shape[1] - 1):
                logits, state = model.step(ids[:, t : t + 1], state)  # (1, V): sees ids[:, :t+1] only
                total -= float(torch.log_softmax(logits.float(), dim=-1)[0, ids[0, t + 1]])
                count += 1
    finally:
        model.use_kv_cache = use_cache
    if count == 0:
        raise ValueError("every window needs at least two tokens")
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
