"""Train short, evaluate long: how each positional encoding copes with inputs longer than its training windows."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

from utils.batching import batch_sampler
from utils.dataset import token_stream
from utils.device import set_seed
from utils.evaluation import summed_nll
from utils.i18n.text import tr
from utils.training import TrainConfig, train
from utils.transformer import TransformerConfig, TransformerLM


@dataclass
class ExtrapolationResult:
    """One encoding's validation loss at each evaluation length (NaN where the model cannot read that length)."""

    positional: str
    train_length: int
    losses: dict[int, float] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)

    def degradation(self, length: int) -> float:
        """Loss at `length` minus loss at the training length (NaN if either is missing)."""
        return self.losses.get(length, math.nan) - self.losses.get(self.train_length, math.nan)


def fixed_windows(tokens: torch.Tensor, length: int, count: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """`count` windows of `length` tokens at seeded random starts: inputs and targets, each (count, length)."""
    if tokens.dim() != 1 or tokens.numel() <= length:
        raise ValueError(f"need a 1-D text longer than {length} tokens, got shape {tuple(tokens.shape)}")
    generator = torch.Generator().manual_seed(seed)
    starts = torch.randint(0, tokens.numel() - length, (count,), generator=generator)  # (N,)
    windows = tokens[starts[:, None] + torch.arange(length + 1)[None, :]]  # (N, length+1)
    return windows[:, :-1], windows[:, 1:]


@torch.no_grad()
def loss_at_length(model: TransformerLM, tokens: torch.Tensor, length: int, count: int = 32, seed: int = 0) -> float:
    """Mean next-token loss over every position of `count` validation windows of `length` tokens."""
    x, y = fixed_windows(tokens, length, count, seed)
    model.eval()
    total, n = summed_nll(model(x.to(model.device)), y.to(model.device))
    return total / n


def train_short_eval_long(
    dataset,
    kinds: tuple[str, ...],
    train_length: int,
    eval_lengths: list[int],
    steps: int,
    batch_size: int = 16,
    seed: int = 0,
    eval_windows: int = 32,
    **model_sizes,
) -> tuple[list[ExtrapolationResult], dict[str, TransformerLM]]:
    """Train one small TransformerLM per positional kind on windows of `train_length`; evaluate at each length.

    Items corpora (names) are read as one stream of items joined by the boundary token.
    """
    if train_length not in eval_lengths:
        raise ValueError(f"eval_lengths {eval_lengths} must include the training length {train_length}")
    from tqdm.auto import tqdm

    train_tokens, val_tokens = token_stream(dataset, "train"), token_stream(dataset, "val")  # 1-D ids (items joined)
    results, models = [], {}
    for kind in tqdm(kinds, desc=tr("train short, evaluate long (one model per encoding)")):
        generator = set_seed(seed)
        config = TransformerConfig(dataset.vocab_size, context_length=train_length, positional=kind, **model_sizes)
        model = TransformerLM(config)
        train(model, batch_sampler(train_tokens, batch_size, train_length, generator=generator),
              TrainConfig(steps=steps, lr=3e-3, warmup_steps=steps // 10, progress=False))
        result = ExtrapolationResult(kind, train_length)
        for length in eval_lengths:
            try:
                result.losses[length] = loss_at_length(model, val_tokens, length, eval_windows, seed)
            except ValueError as error:
                result.losses[length] = math.nan
                result.errors[length] = str(error)
        results.append(result)
        models[kind] = model
    return results, models


def unclipped_copy(model: TransformerLM, length: int) -> TransformerLM:
    """A copy of a relative-bias model whose table covers every offset up to length - 1 without clipping: the trained
    offsets keep their values, the others get 0 (what an unclipped table keeps for offsets it never saw in training)."""
    from copy import deepcopy

    from utils.positional import RelativePositionBias

    copy = deepcopy(model)
    old = copy.relative_bias
    if old is None or length < old.max_distance:
        raise ValueError(f"need a relative-bias model and a length of at least its max_distance, got {length}")
    new = RelativePositionBias(old.n_heads, length).to(old.bias.weight.device)
    with torch.no_grad():
        new.bias.weight.zero_()
        new.bias.weight[length - old.max_distance: length + old.max_distance - 1] = old.bias.weight  # offsets -(D-1)..D-1
    copy.relative_bias = new
    return copy
