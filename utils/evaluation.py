"""Cross-entropy, perplexity and bits per token of a model on a split."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from utils.batching import sequential_batches
from utils.i18n.text import tr
from utils.interface import IGNORE_INDEX, LanguageModel


@dataclass(frozen=True)
class Metrics:
    """Mean negative log-likelihood (nats per token) and what follows from it."""

    nll: float
    tokens: int

    @property
    def perplexity(self) -> float:
        """exp(mean NLL): the effective number of equally likely choices per token."""
        return math.exp(self.nll) if self.nll < 700 else math.inf

    @property
    def bits_per_token(self) -> float:
        """Mean NLL in bits (bits per character for a character model)."""
        return self.nll / math.log(2)

    def __str__(self) -> str:
        return tr("nll {nll:.4f} nats/token | perplexity {perplexity:.3f} | {bits:.4f} bits/token | {tokens} tokens",
                  nll=self.nll, perplexity=self.perplexity, bits=self.bits_per_token, tokens=self.tokens)


def summed_nll(logits: torch.Tensor, targets: torch.Tensor) -> tuple[float, int]:
    """Sum of -log p(target) over non-ignored targets, and their count. logits (B, T, V), targets (B, T)."""
    log_probs = F.log_softmax(logits.float(), dim=-1)  # (B, T, V)
    keep = targets != IGNORE_INDEX  # (B, T)
    picked = log_probs.gather(-1, targets.clamp(min=0).unsqueeze(-1)).squeeze(-1)  # (B, T)
    return float(-(picked[keep]).double().sum()), int(keep.sum())  # summed in float64: no drift over long splits


@torch.no_grad()
def evaluate(
    model: LanguageModel,
    data: torch.Tensor | Sequence[torch.Tensor],
    boundary_id: int | None = None,
    block_size: int = 256,
    batch_size: int = 32,
    max_batches: int | None = None,
) -> Metrics:
    """Mean NLL of every target in `data` (text: consecutive chunks of `block_size`; items: framed)."""
    if model.context_length is not None:
        block_size = min(block_size, model.context_length)
    was_training = model.training
    model.eval()
    total, count = 0.0, 0
    try:
        for index, (x, y) in enumerate(sequential_batches(data, batch_size, block_size, boundary_id)):
            if max_batches is not None and index >= max_batches:
                break
            x, y = x.to(model.device), y.to(model.device)
            batch_total, batch_count = summed_nll(model(x), y)
            total, count = total + batch_total, count + batch_count
    finally:
        model.train(was_training)
    if count == 0:
        raise ValueError("nothing to evaluate: the data has no targets")
    return Metrics(total / count, count)


def evaluate_split(model: LanguageModel, dataset, split: str = "val", **kwargs) -> Metrics:
    """evaluate() on a split of a utils.dataset.Dataset."""
    boundary = dataset.tokenizer.boundary_id if dataset.kind == "items" else None
    return evaluate(model, dataset.part(split), boundary_id=boundary, **kwargs)


@torch.no_grad()
def token_log_probs(model: LanguageModel, ids: Sequence[int] | torch.Tensor) -> torch.Tensor:
    """log p(x_t | x_<t) for t = 1..T-1 of one sequence (T,) -> (T-1,): the chain rule's factors."""
    idx = torch.as_tensor(ids, dtype=torch.long, device=model.device)
    if idx.dim() != 1 or idx.numel() < 2:
        raise ValueError(f"expected a 1-D sequence of at least 2 token ids, got shape {tuple(idx.shape)}")
    log_probs = F.log_softmax(model(idx[None, :-1]).float(), dim=-1)[0]  # (T-1, V)
    return log_probs.gather(-1, idx[1:, None]).squeeze(-1)  # (T-1,)
