"""New combinations of familiar parts: contexts a count table has never seen, but a function can score.

The tokens 0..V-1 fall into `num_classes` classes of `class_size` consecutive ids, class(t) = t // class_size.
Every sequence is three tokens a, b, c. The next token c is fixed by the classes of *both* a and b:
c is the token of a's class at place class(b) inside it,

    c = class(a) * class_size + class(b),

so neither a alone nor b alone tells which token follows. The V * V token pairs (a, b) are split once
(seeded) into training pairs (a share `seen_share`) and held-out pairs that never occur in training.
Every class pair has many training token pairs, so the rule can be learned from the training pairs; a
held-out pair is a new combination of tokens each seen in other training pairs.

A count model has no entry for a held-out pair: it can only back off to the last token b, which leaves
class(a) unknown (about log num_classes nats of loss). A model that treats tokens of one class alike can
score held-out pairs as well as training pairs (loss near 0). `shared=False` gives every token pair its
own random follower instead: then nothing learned on the training pairs says anything about the held-out ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from utils.interface import IGNORE_INDEX, LanguageModel

SPLITS = ("train", "heldout")


@dataclass(frozen=True)
class ClassPairTask:
    """Three-token sequences a, b, c where c depends on the classes of a and b; token pairs split train/held-out."""

    num_classes: int = 4
    class_size: int = 6
    seen_share: float = 0.5  # share of the token pairs (a, b) that occur in training
    shared: bool = True  # False: each token pair gets its own random follower (no rule to share)
    seed: int = 0  # fixes the split of the pairs (and the random followers of shared=False)

    def __post_init__(self) -> None:
        if self.num_classes < 2 or self.class_size < self.num_classes:
            raise ValueError(f"need num_classes >= 2 and class_size >= num_classes (c's place in a class is "
                             f"class(b)), got num_classes={self.num_classes}, class_size={self.class_size}")
        if not 0 < self.seen_share < 1:
            raise ValueError(f"seen_share must lie strictly between 0 and 1, got {self.seen_share}")

    @property
    def vocab_size(self) -> int:
        """num_classes * class_size tokens."""
        return self.num_classes * self.class_size

    @property
    def one_token_loss(self) -> float:
        """log num_classes: the loss of the best guess from b alone when a's class is uniform."""
        return math.log(self.num_classes)

    def token_class(self, ids: torch.Tensor) -> torch.Tensor:
        """The class of each token id (same shape)."""
        return ids // self.class_size

    def followers(self) -> torch.Tensor:
        """(V, V) table: entry [a, b] is the token that follows the pair (a, b)."""
        ids = torch.arange(self.vocab_size)
        if self.shared:
            return self.token_class(ids)[:, None] * self.class_size + self.token_class(ids)[None, :]  # (V, V)
        generator = torch.Generator().manual_seed(self.seed + 1)
        return torch.randint(0, self.vocab_size, (self.vocab_size, self.vocab_size), generator=generator)  # (V, V)

    def pairs(self, split: str) -> torch.Tensor:
        """(P, 2) token pairs of one split: 'train' or 'heldout' (disjoint; together all V * V pairs)."""
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
        V = self.vocab_size
        every = torch.cartesian_prod(torch.arange(V), torch.arange(V))  # (V*V, 2)
        order = torch.randperm(V * V, generator=torch.Generator().manual_seed(self.seed))
        cut = max(1, min(V * V - 1, round(self.seen_share * V * V)))
        return every[order[:cut]] if split == "train" else every[order[cut:]]

    def sequences(self, split: str, n: int, generator: torch.Generator | None = None) -> torch.Tensor:
        """(n, 3) sequences a, b, c with (a, b) drawn uniformly from the split's pairs."""
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        pairs = self.pairs(split)  # (P, 2)
        chosen = pairs[torch.randint(0, len(pairs), (n,), generator=generator)]  # (n, 2)
        follower = self.followers()[chosen[:, 0], chosen[:, 1]]  # (n,)
        return torch.cat([chosen, follower[:, None]], dim=1)  # (n, 3)

    def describe(self, sequence: torch.Tensor) -> str:
        """One sequence as text: token t is written as its class letter and place, e.g. 'B3'."""
        return " ".join(f"{chr(ord('A') + int(t) // self.class_size)}{int(t) % self.class_size}" for t in sequence)


def batches_from(sequences: torch.Tensor, batch_size: int, generator: torch.Generator | None = None):
    """A function returning a random batch (x (B, 2), y (B, 2)) of the given (n, 3) sequences per call.

    Only c is scored: y is IGNORE_INDEX at the first position and c at the second (the prediction after b).
    """
    if sequences.dim() != 2 or sequences.shape[1] != 3:
        raise ValueError(f"expected sequences of shape (n, 3), got {tuple(sequences.shape)}")

    def batch() -> tuple[torch.Tensor, torch.Tensor]:
        rows = sequences[torch.randint(0, len(sequences), (batch_size,), generator=generator)]  # (B, 3)
        y = torch.full((batch_size, 2), IGNORE_INDEX, dtype=torch.long)  # (B, 2)
        y[:, 1] = rows[:, 2]
        return rows[:, :2], y
    return batch


@torch.no_grad()
def follower_loss(model: LanguageModel, sequences: torch.Tensor) -> float:
    """Mean loss in nats of `model` on c given a, b, over (n, 3) sequences (log-probabilities work as logits)."""
    was_training = model.training
    model.eval()
    scores = model(sequences[:, :2].to(model.device))[:, -1].float()  # (n, V): the prediction after b
    model.train(was_training)
    return float(torch.nn.functional.cross_entropy(scores, sequences[:, 2].to(scores.device)))
