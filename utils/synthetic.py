"""A long-range recall task: the first symbol of a sequence must be repeated at its end.

A sequence is   key, d_1, ..., d_L, ?   and the only scored prediction is the one after
'?': the key. Keys are drawn uniformly from K key symbols, the L distractors uniformly
from D distractor symbols, all independently. Any model that sees fewer than the last
L + 2 tokens sees only distractors and '?', which say nothing about the key: its best
possible prediction is uniform over the K keys, so its loss is at least log K nats and
its expected accuracy 1/K ("chance", exact). A model that remembers the first token can
reach loss 0.

Token ids: keys 0..K-1, distractors K..K+D-1, the query '?' is K+D.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from utils.interface import IGNORE_INDEX, LanguageModel


@dataclass(frozen=True)
class RecallTask:
    """Copy-the-first-symbol task: `num_keys` keys, `num_distractors` distractor symbols, `gap` distractors."""

    num_keys: int = 8
    num_distractors: int = 8
    gap: int = 30  # L: distractors between the key and the query

    def __post_init__(self) -> None:
        if self.num_keys < 2 or self.num_distractors < 1 or self.gap < 0:
            raise ValueError(f"need num_keys >= 2, num_distractors >= 1 and gap >= 0, got {self}")

    @property
    def vocab_size(self) -> int:
        """Keys, distractors and the query symbol."""
        return self.num_keys + self.num_distractors + 1

    @property
    def query_id(self) -> int:
        """Id of the '?' symbol after which the key must be produced."""
        return self.num_keys + self.num_distractors

    @property
    def length(self) -> int:
        """Tokens per input sequence: key, gap distractors, query."""
        return self.gap + 2

    @property
    def chance_loss(self) -> float:
        """log K: the lowest expected loss of any model that cannot see the key."""
        return math.log(self.num_keys)

    @property
    def chance_accuracy(self) -> float:
        """1/K: the expected accuracy of any model that cannot see the key."""
        return 1.0 / self.num_keys

    def batch(self, batch_size: int, generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Inputs x (B, L+2) and targets y (B, L+2): y is IGNORE_INDEX everywhere but the last position (the key)."""
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        keys = torch.randint(0, self.num_keys, (batch_size, 1), generator=generator)  # (B, 1)
        distractors = self.num_keys + torch.randint(0, self.num_distractors, (batch_size, self.gap), generator=generator)  # (B, L)
        query = torch.full((batch_size, 1), self.query_id, dtype=torch.long)  # (B, 1)
        x = torch.cat([keys, distractors, query], dim=1)  # (B, L+2)
        y = torch.full_like(x, IGNORE_INDEX)  # (B, L+2)
        y[:, -1] = keys[:, 0]
        return x, y

    def sampler(self, batch_size: int, generator: torch.Generator | None = None):
        """A function returning a fresh batch each call (for utils.training.train)."""
        return lambda: self.batch(batch_size, generator)

    def describe(self, x: torch.Tensor) -> str:
        """One sequence as text: keys A, B, ..., distractors a, b, ..., and '?'."""
        def symbol(i: int) -> str:
            if i < self.num_keys:
                return chr(ord("A") + i % 26)
            if i < self.query_id:
                return chr(ord("a") + (i - self.num_keys) % 26)
            return "?"
        return " ".join(symbol(int(i)) for i in x)


@torch.no_grad()
def recall_scores(model: LanguageModel, x: torch.Tensor, y: torch.Tensor) -> tuple[float, float]:
    """(loss in nats, accuracy) of `model` on the scored (last) position of a RecallTask batch."""
    was_training = model.training
    model.eval()
    logits = model(x.to(model.device))[:, -1].float()  # (B, V)
    model.train(was_training)
    keys = y[:, -1].to(logits.device)  # (B,)
    loss = torch.nn.functional.cross_entropy(logits, keys)
    accuracy = (logits.argmax(dim=-1) == keys).float().mean()
    return float(loss), float(accuracy)
