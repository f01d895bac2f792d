"""Normalisation layers known only by calling them, for notebook 07's exercise 4: which of BatchNorm's problems?

A layer here is a bare function `norm(x, mask, training=True)`: x (B, T, C), mask (B, T) True at real tokens,
`training` False for inference; it returns (B, T, C). `make_normaliser` builds the kinds between LayerNorm and
BatchNorm: statistics per token, per sequence or over the batch, with or without the padding positions, with or
without running averages (updated by every training call, used at inference). The three problems of the notebook's
section "LayerNorm vs BatchNorm" follow from the kind (`problems_of`):
- "padding": the statistics include the padding positions (per sequence or over the batch, unmasked);
- "batch": the statistics come from the whole batch, so the other sequences move a sequence's outputs;
- "train_eval": inference uses running averages instead of the statistics training used.
`probe_problems` finds them by measurement alone: one controlled experiment per problem.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F

PROBLEMS = ("padding", "batch", "train_eval")
STATISTICS = ("token", "sequence", "batch")  # over what a layer computes its mean and variance
Normaliser = Callable[..., torch.Tensor]


def problems_of(statistics: str, masked: bool, running: bool) -> frozenset[str]:
    """The problems of a layer of this kind (a per-token layer never sees the padding, masked or not)."""
    if statistics not in STATISTICS:
        raise ValueError(f"statistics must be one of {', '.join(STATISTICS)}, got {statistics!r}")
    found = set()
    if statistics != "token" and not masked:
        found.add("padding")
    if statistics == "batch":
        found.add("batch")
    if running:
        found.add("train_eval")
    return frozenset(found)


def _moments(x: torch.Tensor, weights: torch.Tensor, dims: tuple[int, ...]) -> tuple[torch.Tensor, torch.Tensor]:
    """Weighted mean and biased variance of x over `dims` (weights broadcast to x), keeping the reduced dims."""
    count = (weights * torch.ones_like(x)).sum(dim=dims, keepdim=True).clamp(min=1.0)
    mean = (x * weights).sum(dim=dims, keepdim=True) / count
    variance = ((x - mean) ** 2 * weights).sum(dim=dims, keepdim=True) / count
    return mean, variance


def make_normaliser(statistics: str, masked: bool, running: bool, width: int, seed: int,
                    gain: torch.Tensor | None = None, bias: torch.Tensor | None = None,
                    warm_batches: tuple[torch.Tensor, ...] = (), warm_masks: tuple[torch.Tensor, ...] = (),
                    momentum: float = 0.1, eps: float = 1e-5) -> Normaliser:
    """A layer `norm(x, mask, training=True)` of this kind; gains in [0.5, 2] and biases in [-0.25, 0.25] unless given;
    `warm_batches` (with their masks, all real if none) pass through in training mode first, setting running averages."""
    if statistics not in STATISTICS:
        raise ValueError(f"statistics must be one of {', '.join(STATISTICS)}, got {statistics!r}")
    generator = torch.Generator().manual_seed(seed)
    gain = (torch.rand(width, generator=generator) * 1.5 + 0.5) if gain is None else gain.detach().float().clone()
    bias = (torch.rand(width, generator=generator) * 0.5 - 0.25) if bias is None else bias.detach().float().clone()
    state = {"mean": torch.zeros(width), "var": torch.ones(width)}  # running averages, per feature (per token: var only)

    def batch_moments(x: torch.Tensor, weights: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if statistics == "token":  # each token over its own features: the padding is never read
            return _moments(x, torch.ones_like(weights), (2,))  # (B, T, 1) each
        dims = (1,) if statistics == "sequence" else (0, 1)  # per sequence over its positions, or over the batch
        return _moments(x, weights, dims)  # (B, 1, C) or (1, 1, C)

    @torch.no_grad()
    def normalise(x: torch.Tensor, mask: torch.Tensor, training: bool = True) -> torch.Tensor:
        if x.dim() != 3 or x.shape[-1] != width or tuple(mask.shape) != tuple(x.shape[:2]):
            raise ValueError(f"expected x of shape (B, T, {width}) and a (B, T) mask, got {tuple(x.shape)} and "
                             f"{tuple(mask.shape)}")
        x = x.float()
        weights = mask.to(x.dtype).unsqueeze(-1) if masked else torch.ones(*x.shape[:2], 1)  # (B, T, 1)
        if training or not running:
            mean, variance = batch_moments(x, weights)
            if training and running:  # update the running averages, as BatchNorm does in training mode
                if statistics == "token":
                    real = mask.to(x.dtype).unsqueeze(-1)  # the real tokens' variances, averaged
                    state["var"] = (1 - momentum) * state["var"] + momentum * (variance * real).sum() / real.sum().clamp(min=1)
                else:
                    seen = (weights * torch.ones_like(x)).sum(dim=(0, 1)).clamp(min=1.0)  # (C,)
                    batch_mean = (x * weights).sum(dim=(0, 1)) / seen
                    batch_var = ((x - batch_mean) ** 2 * weights).sum(dim=(0, 1)) / seen
                    state["mean"] = (1 - momentum) * state["mean"] + momentum * batch_mean
                    state["var"] = (1 - momentum) * state["var"] + momentum * batch_var
        elif statistics == "token":  # inference: its own mean, the running average of the tokens' variances
            mean, variance = x.mean(dim=2, keepdim=True), state["var"]
        else:
            mean, variance = state["mean"], state["var"]
        return gain * (x - mean) / torch.sqrt(variance + eps) + bias  # (B, T, C)

    for index, batch in enumerate(warm_batches):
        normalise(batch, warm_masks[index] if index < len(warm_masks) else torch.ones(batch.shape[:2], dtype=torch.bool))
    return normalise


def warm_data(width: int, seed: int, shifted: bool, batches: int = 6) -> tuple[torch.Tensor, ...]:
    """Training batches (4, 12, C) that set a layer's running averages: standard normal, or shifted and scaled per feature."""
    generator = torch.Generator().manual_seed(seed)
    scale = torch.rand(width, generator=generator) * 2.5 + 0.5 if shifted else torch.ones(width)
    shift = torch.randn(width, generator=generator) * 3 if shifted else torch.zeros(width)
    return tuple(torch.randn(4, 12, width, generator=generator) * scale + shift for _ in range(batches))


def generated_normaliser(statistics: str, masked: bool, running: bool, width: int, warm: str, seed: int) -> Normaliser:
    """A hidden-test layer: random gains and biases, running averages (if kept) from standard or shifted batches."""
    return make_normaliser(statistics, masked, running, width, seed,
                           warm_batches=warm_data(width, seed + 1, warm == "shifted"))


@torch.no_grad()
def probe_problems(norm: Normaliser, width: int, tolerance: float = 1e-3) -> set[str]:
    """The problems of a layer found by measurement: one controlled experiment each, in both modes where it matters."""
    generator = torch.Generator().manual_seed(0)
    first = torch.randn(6, width, generator=generator) * 3 + 5  # (T, C): the sequence watched
    second = torch.randn(4, width, generator=generator) * 2 - 4  # (T, C): another real sequence, shorter
    other = torch.randn(4, width, generator=generator) * 5 + 9  # (T, C): its replacement

    def batch(rows: list[torch.Tensor], length: int, pad_value: float) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.full((len(rows), length, width), pad_value)  # (B, T, C)
        mask = torch.zeros(len(rows), length, dtype=torch.bool)  # (B, T)
        for row, tokens in enumerate(rows):
            x[row, : len(tokens)], mask[row, : len(tokens)] = tokens, True
        return x, mask

    def moved(a: tuple[torch.Tensor, torch.Tensor], b: tuple[torch.Tensor, torch.Tensor], training: bool) -> float:
        """The largest change of the first sequence's outputs at its real tokens between batches a and b."""
        return float((norm(*a, training=training)[0, :6] - norm(*b, training=training)[0, :6]).abs().max())

    base = batch([first, second], 6, 0.0)
    found = set()
    for training in (False, True):  # inference first: it reads, and never updates, the running averages
        if moved(base, batch([first, second], 11, 7.0), training) > tolerance:  # more padding, other values
            found.add("padding")
        if moved(base, batch([first, other], 6, 0.0), training) > tolerance:  # only the other sequence changes
            found.add("batch")
    for scale, shift in ((1.0, 0.0), (40.0, 300.0)):  # two very different batches: running averages cannot match both
        x = (base[0] * scale + shift, base[1])
        inference = norm(*x, training=False)[base[1]]  # (N_real, C)
        if float((norm(*x, training=True)[base[1]] - inference).abs().max()) > tolerance:
            found.add("train_eval")
    return found
