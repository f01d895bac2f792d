"""Tiny language models given by a table of next-token probabilities, whose best sequences can be enumerated.

TableLM(p) predicts p[last token] (a bigram table). GREEDY_TRAP: from token 0, greedy (beam width 1)
writes 0000, width 2 writes 1010 (likelier, still not the best) and width 3 finds the most likely 4-token
continuation 2222; no two candidates tie at any cut of widths 1-3 (every margin >= 0.08 nats), so the
outcome does not depend on how a search breaks ties.
STOP_TABLE: token 0 is a stop token; the most likely continuation of token 1 is to stop at
once, while with GNMT's length penalty (alpha >= 0.5) the 3-token sentence 2, 3, stop wins.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from utils.interface import LanguageModel

GREEDY_TRAP = ((0.39, 0.33, 0.28), (0.59, 0.22, 0.19), (0.34, 0.05, 0.61))  # p[a][b] = p(b | a)
GREEDY_TRAP_LENGTH = 4  # tokens searched after the prefix [0]
STOP_TABLE = (  # token 0 ends the sentence; from token 1: stop at once (0.4), or 2 -> 3 -> stop (0.5 * 0.85 * 0.85)
    (0.25, 0.25, 0.25, 0.25),
    (0.40, 0.05, 0.50, 0.05),
    (0.05, 0.05, 0.05, 0.85),
    (0.85, 0.05, 0.05, 0.05),
)


class TableLM(LanguageModel):
    """Next-token probabilities from a fixed (V, V) table: p(b | ..., a) = table[a][b]; forward returns log p."""

    def __init__(self, probs: Sequence[Sequence[float]]):
        super().__init__()
        table = torch.tensor(probs, dtype=torch.float32)  # (V, V)
        if table.dim() != 2 or table.shape[0] != table.shape[1]:
            raise ValueError(f"the table must be square (V, V), got shape {tuple(table.shape)}")
        if (table <= 0).any() or not torch.allclose(table.sum(dim=1), torch.ones(len(table)), atol=1e-4):
            raise ValueError("every row of the table must hold positive probabilities that sum to 1")
        self.register_buffer("log_table", table.log())  # (V, V)
        self.vocab_size, self.context_length = table.shape[0], None

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        """log p(next | current token) at every position."""
        self.validate_input(idx)
        return self.log_table[idx]


__all__ = ["GREEDY_TRAP", "GREEDY_TRAP_LENGTH", "STOP_TABLE", "TableLM"]
