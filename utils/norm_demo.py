"""LayerNorm vs BatchNorm on padded, variable-length batches: the three ways batch statistics go wrong.

A language model sees batches of sequences of different lengths, padded to the longest.
LayerNorm normalises each token over its own features, so a token's output never depends
on the rest of the batch. BatchNorm normalises each feature over every (sequence, position)
in the batch, padding included, so (1) padding pollutes the statistics, (2) training on tiny
batches gives noisy statistics (a batch of one token has no variance to divide by), and (3) training
(batch statistics) and inference (running averages) give different outputs.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn


def padded_batch(sequences: Sequence[torch.Tensor], pad_value: float = 0.0) -> tuple[torch.Tensor, torch.Tensor]:
    """Stack feature sequences (T_i, C) into a batch (B, T_max, C) padded with `pad_value`, and its mask (B, T_max)."""
    if len(sequences) == 0:
        raise ValueError("padded_batch needs at least one sequence")
    widths = {seq.shape[-1] for seq in sequences}
    if any(seq.dim() != 2 for seq in sequences) or len(widths) != 1:
        raise ValueError("every sequence must be a (T_i, C) tensor with the same number of features C")
    longest = max(seq.shape[0] for seq in sequences)
    batch = torch.full((len(sequences), longest, widths.pop()), pad_value)  # (B, T, C)
    mask = torch.zeros(len(sequences), longest, dtype=torch.bool)  # (B, T)
    for row, seq in enumerate(sequences):
        batch[row, : seq.shape[0]] = seq
        mask[row, : seq.shape[0]] = True
    return batch, mask


def batch_norm_tokens(norm: nn.BatchNorm1d, x: torch.Tensor) -> torch.Tensor:
    """Apply BatchNorm1d to token features x (B, T, C): statistics per feature over all B*T positions."""
    return norm(x.transpose(1, 2)).transpose(1, 2)  # (B, C, T) -> (B, T, C)


@torch.no_grad()
def padding_drift(
    sequence: torch.Tensor, pad_lengths: Sequence[int], pad_value: float = 0.0, seed: int = 0
) -> dict[str, list[float]]:
    """How much a sequence's normalised output changes when only the padding of its batch grows.

    The sequence (T, C) shares a batch with one fixed companion sequence of the same length;
    both are padded with `pad` extra positions of `pad_value`, so the real tokens of the batch
    never change, only the amount of padding. Returned: for each pad length, the largest
    change of the sequence's own outputs against the pad-free batch, for a fresh LayerNorm
    and a fresh BatchNorm1d (training mode).
    """
    if sequence.dim() != 2:
        raise ValueError(f"sequence must be (T, C), got shape {tuple(sequence.shape)}")
    length, channels = sequence.shape
    generator = torch.Generator().manual_seed(seed)
    companion = torch.randn(length, channels, generator=generator) * 2 + 1  # (T, C): the same real tokens every time
    layer_norm, batch_norm = nn.LayerNorm(channels), nn.BatchNorm1d(channels)
    batch_norm.train()
    drift: dict[str, list[float]] = {"layernorm": [], "batchnorm": []}
    reference = None
    for pad in [0, *pad_lengths]:
        padding = torch.full((pad, channels), pad_value)  # (pad, C)
        batch, _ = padded_batch([torch.cat([sequence, padding]), torch.cat([companion, padding])], pad_value)  # (2, T + pad, C)
        outputs = {
            "layernorm": layer_norm(batch)[0, :length],  # (T, C)
            "batchnorm": batch_norm_tokens(batch_norm, batch)[0, :length],  # (T, C)
        }
        if reference is None:
            reference = outputs
            continue
        for name, out in outputs.items():
            drift[name].append(float((out - reference[name]).abs().max()))
    return drift


def masked_batch_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and (biased) variance over real tokens only: x (B, T, C), mask (B, T) -> (C,), (C,)."""
    real = x[mask]  # (N_real, C)
    return real.mean(dim=0), real.var(dim=0, unbiased=False)


def masked_batch_norm(x: torch.Tensor, mask: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """BatchNorm over the real tokens only: x (B, T, C), mask (B, T) True at real tokens -> (B, T, C), 0 at padding."""
    mean, variance = masked_batch_statistics(x, mask)  # (C,), (C,)
    return (x - mean) / torch.sqrt(variance + eps) * mask.to(x.dtype).unsqueeze(-1)  # (B, T, C)


@torch.no_grad()
def train_eval_gap(norm: nn.Module, x: torch.Tensor, warmup_batches: Sequence[torch.Tensor] = ()) -> float:
    """Largest difference between a norm layer's output on x (B, T, C) in train mode and in eval mode.

    `warmup_batches` are passed through in train mode first (they set BatchNorm's running
    statistics, as training would); LayerNorm has none, so its gap is 0.
    """
    apply = (lambda t: batch_norm_tokens(norm, t)) if isinstance(norm, nn.BatchNorm1d) else norm
    norm.train()
    for batch in warmup_batches:
        apply(batch)
    train_out = apply(x)  # (B, T, C)
    norm.eval()
    eval_out = apply(x)  # (B, T, C)
    norm.train()
    return float((train_out - eval_out).abs().max())
