"""The simplest language models: uniform over the vocabulary, unigram frequencies, a trainable bigram table."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from utils.interface import LanguageModel, register_model


@dataclass
class BaselineConfig:
    """Just the vocabulary size."""

    vocab_size: int


class BaselineLM(LanguageModel):
    """Shared set-up of the baselines: a config holding only the vocabulary size."""

    config_class = BaselineConfig

    def __init__(self, config: BaselineConfig):
        super().__init__()
        if config.vocab_size < 1:
            raise ValueError(f"vocab_size must be at least 1, got {config.vocab_size}")
        self.config, self.vocab_size = config, config.vocab_size


@register_model
class UniformLM(BaselineLM):
    """Every token equally likely, whatever the context: perplexity = vocabulary size."""

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        self.validate_input(idx)
        return torch.zeros(*idx.shape, self.vocab_size, device=idx.device)


@register_model
class UnigramLM(BaselineLM):
    """Each token with its training frequency (add-k smoothed), ignoring the context."""

    def __init__(self, config: BaselineConfig):
        super().__init__(config)
        self.register_buffer("log_probs", torch.full((config.vocab_size,), -math.log(config.vocab_size)))

    @classmethod
    def fit(cls, tokens: torch.Tensor, vocab_size: int, k: float = 0.0) -> "UnigramLM":
        """Maximum-likelihood (k = 0) or add-k unigram probabilities from a 1-D tensor of ids."""
        if tokens.numel() == 0:
            raise ValueError("cannot fit a unigram model on no tokens")
        if k < 0:
            raise ValueError(f"k must be >= 0, got {k}")
        model = cls(BaselineConfig(vocab_size))
        counts = torch.bincount(tokens.flatten().cpu(), minlength=vocab_size).double() + k  # (V,)
        model.log_probs = (counts / counts.sum()).log().float()
        return model

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        self.validate_input(idx)
        return self.log_probs.to(idx.device).expand(*idx.shape, self.vocab_size)


@register_model
class BigramTableLM(BaselineLM):
    """A trainable V x V table of next-token logits: the smallest model the training loop can improve."""

    def __init__(self, config: BaselineConfig):
        super().__init__(config)
        self.logits = torch.nn.Embedding(config.vocab_size, config.vocab_size)  # row a: logits of the token after a
        torch.nn.init.zeros_(self.logits.weight)  # start uniform

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        self.validate_input(idx)
        return self.logits(idx)
