"""Fixed-window neural language model (Bengio et al., 2003): embed the last N tokens, concatenate, MLP, logits.

For every position t the model reads the window idx[t-N+1 .. t] of the N most recent
tokens. Positions before the start of the input are padded: with `config.pad_id` when it
is set, otherwise with each row's first token. For framed items (names start with the
boundary token '.') both give the familiar '...emma' windows; for running text the first
token stands in for the unknown past. So forward accepts any length T (context_length is
None) and trains on the same window / item batches as every other model family; it just
never looks further back than N tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from utils.interface import LanguageModel, register_model


@dataclass
class WindowMLPConfig:
    """Sizes of the fixed-window MLP."""

    vocab_size: int
    window: int = 3  # N: how many previous tokens the model sees
    d_embed: int = 16  # size of each token's embedding vector
    d_hidden: int = 200  # width of the tanh hidden layer
    pad_id: int | None = None  # id that pads windows before the start (None: each row's first token)

    def __post_init__(self) -> None:
        if self.vocab_size < 1 or self.window < 1 or self.d_embed < 1 or self.d_hidden < 1:
            raise ValueError(f"vocab_size, window, d_embed and d_hidden must all be >= 1, got {self}")
        if self.pad_id is not None and not 0 <= self.pad_id < self.vocab_size:
            raise ValueError(f"pad_id must be a token id in [0, {self.vocab_size}), got {self.pad_id}")


def sliding_windows(idx: torch.Tensor, window: int, pad_id: int | None = None) -> torch.Tensor:
    """The N tokens ending at each position: (B, T) -> (B, T, N), left-padded with pad_id (None: row's first token)."""
    if idx.dim() != 2:
        raise ValueError(f"expected token ids of shape (B, T), got shape {tuple(idx.shape)}")
    if idx.shape[1] == 0:
        raise ValueError("cannot build windows of an empty sequence")
    pad_source = idx[:, :1] if pad_id is None else torch.full_like(idx[:, :1], pad_id)  # (B, 1)
    padded = torch.cat([pad_source.expand(-1, window - 1), idx], dim=1)  # (B, T+N-1)
    return padded.unfold(1, window, 1)  # (B, T, N)


@register_model
class WindowMLPLM(LanguageModel):
    """Logits = W2 tanh(W1 [e(x_{t-N+1}); ...; e(x_t)] + b1) + b2 at every position."""

    config_class = WindowMLPConfig

    def __init__(self, config: WindowMLPConfig):
        super().__init__()
        self.config, self.vocab_size, self.window = config, config.vocab_size, config.window
        self.context_length = None  # any length: each position reads only its own window
        self.embedding = nn.Embedding(config.vocab_size, config.d_embed)  # C: (V, E)
        self.hidden = nn.Linear(config.window * config.d_embed, config.d_hidden)  # W1, b1
        self.output = nn.Linear(config.d_hidden, config.vocab_size)  # W2, b2
        with torch.no_grad():  # small output layer: the first loss is close to log V, not far above
            self.output.weight.mul_(0.1)
            self.output.bias.zero_()

    def logits_from_windows(self, contexts: torch.Tensor) -> torch.Tensor:
        """Next-token logits for explicit windows: (..., N) ids -> (..., V)."""
        if contexts.dtype not in (torch.int64, torch.int32, torch.int16, torch.uint8):
            raise ValueError(f"windows must hold integer token ids, got dtype {contexts.dtype}")
        if contexts.dim() == 0 or contexts.shape[-1] != self.window:
            raise ValueError(
                f"each window must hold exactly {self.window} tokens (the model's N), got shape {tuple(contexts.shape)}; "
                f"crop longer contexts to their last {self.window} tokens"
            )
        emb = self.embedding(contexts.long())  # (..., N, E)
        flat = emb.flatten(-2)  # (..., N*E)
        return self.output(torch.tanh(self.hidden(flat)))  # (..., V)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        """Logits at every position, each from the window of the N tokens ending there."""
        self.validate_input(idx)
        return self.logits_from_windows(sliding_windows(idx, self.window, self.config.pad_id))  # (B, T, V)

    def step(self, new_idx: torch.Tensor, state: torch.Tensor | None) -> tuple[torch.Tensor, torch.Tensor]:
        """Generation keeps only the last N tokens as its state: O(1) work per new token."""
        history = new_idx if state is None else torch.cat([state, new_idx], dim=1)  # (B, T_hist)
        history = history[:, -self.window :]  # (B, <=N): nothing older can matter
        return self(history)[:, -1, :], history


def ngram_table_size(vocab_size: int, window: int) -> int:
    """Entries of a full count table for N previous tokens: V^N contexts times V next tokens."""
    return vocab_size ** (window + 1)
