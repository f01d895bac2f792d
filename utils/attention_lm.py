"""A one-layer attention language model, small enough to read in one screen, for notebook 05.

    tokens -> embedding -> one causal multi-head attention (rotary positions) -> + residual
           -> LayerNorm -> logits

Switches that notebook 05 turns off one at a time to show why each part is there:
    scale     divide the scores by sqrt(d_k) (False: raw q . k)
    tie_qk    use one matrix for queries and keys (W_K = W_Q)
    residual  add the embedding back after attention (False: the prediction sees only what attention read)
Positions enter through rotary angles on q and k only, so two equal tokens enter the value
path with the same vector and differ after attention only through what they read.
The embedding starts at unit variance (PyTorch's default), so q and k entries have variance
about 1/3 at initialisation and the raw score's variance grows with d_k.

Also here: the previous-token task (target at t is the token at t - 1), whose solution is
one head that attends one step back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from utils.attention import causal_mask
from utils.device import set_seed
from utils.interface import IGNORE_INDEX, LanguageModel, register_model
from utils.positional import apply_rotary, rotary_cos_sin
from utils.training import TrainConfig, TrainHistory, train


@dataclass
class AttentionLMConfig:
    """Sizes and switches of a OneLayerAttentionLM."""

    vocab_size: int
    d_model: int = 64  # width of embeddings and of the attention output
    n_head: int = 4  # heads; each has d_k = d_model / n_head
    scale: bool = True  # divide the scores by sqrt(d_k)
    tie_qk: bool = False  # queries and keys from one matrix (W_K = W_Q)
    residual: bool = True  # add the embedding to the attention output (False: the head's output alone)

    def __post_init__(self) -> None:
        if self.vocab_size < 1 or self.d_model < 2 or self.n_head < 1:
            raise ValueError("vocab_size >= 1, d_model >= 2 and n_head >= 1 are needed")
        if self.d_model % self.n_head or (self.d_model // self.n_head) % 2:
            raise ValueError(f"d_model / n_head must be an even integer (rotary pairs), got {self.d_model}/{self.n_head}")


@register_model
class OneLayerAttentionLM(LanguageModel):
    """Embedding, one causal multi-head attention with rotary positions and a residual, LayerNorm, unembedding."""

    config_class = AttentionLMConfig

    def __init__(self, config: AttentionLMConfig):
        super().__init__()
        self.config, self.vocab_size, self.context_length = config, config.vocab_size, None
        D = config.d_model
        self.embedding = nn.Embedding(config.vocab_size, D)  # N(0, 1) entries
        self.w_q = nn.Linear(D, D, bias=False)
        self.w_k = None if config.tie_qk else nn.Linear(D, D, bias=False)
        self.w_v = nn.Linear(D, D, bias=False)
        self.w_o = nn.Linear(D, D, bias=False)
        self.norm = nn.LayerNorm(D)
        self.unembedding = nn.Linear(D, config.vocab_size)

    def _split(self, t: torch.Tensor) -> torch.Tensor:
        """(B, T, D) -> (B, H, T, Dh)."""
        B, T, D = t.shape
        return t.view(B, T, self.config.n_head, D // self.config.n_head).transpose(1, 2)

    def queries_keys(self, idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Rotated queries and keys (B, H, T, Dh) each of token ids (B, T)."""
        self.validate_input(idx)
        x = self.embedding(idx)  # (B, T, D)
        q = self._split(self.w_q(x))  # (B, H, T, Dh)
        k = q if self.w_k is None else self._split(self.w_k(x))  # (B, H, T, Dh)
        cos, sin = rotary_cos_sin(idx.shape[1], q.shape[-1], device=idx.device)  # (T, Dh/2) each
        return apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)

    def scores(self, idx: torch.Tensor) -> torch.Tensor:
        """The attention scores q . k (divided by sqrt(d_k) when config.scale), before the mask: (B, H, T, T)."""
        q, k = self.queries_keys(idx)  # (B, H, T, Dh) each
        scores = q @ k.transpose(-2, -1)  # (B, H, T, T)
        if self.config.scale:
            scores = scores / math.sqrt(q.shape[-1])
        return scores

    def attend(self, idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Embeddings (B, T, D), attention outputs (B, T, D) and weights (B, H, T, T) of token ids (B, T)."""
        B, T = idx.shape
        x = self.embedding(idx)  # (B, T, D)
        v = self._split(self.w_v(x))  # (B, H, T, Dh)
        weights = torch.softmax(self.scores(idx) + causal_mask(T, idx.device), dim=-1)  # (B, H, T, T)
        out = (weights @ v).transpose(1, 2).reshape(B, T, -1)  # (B, T, D): heads side by side
        return x, self.w_o(out), weights

    def forward_with_attention(self, idx: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Logits (B, T, V) and the one layer's weights, as a list [(B, H, T, T)] (the widgets' format)."""
        x, attended, weights = self.attend(idx)
        h = x + attended if self.config.residual else attended  # (B, T, D)
        return self.unembedding(self.norm(h)), [weights]  # (B, T, V)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        """Next-token logits at every position."""
        return self.forward_with_attention(idx)[0]


def previous_token_batches(vocab_size: int, length: int, batch_size: int, generator: torch.Generator):
    """Batches of uniform random tokens (B, T) whose target at t is the token at t - 1 (position 0 ignored)."""
    if vocab_size < 2 or length < 2 or batch_size < 1:
        raise ValueError("need vocab_size >= 2, length >= 2 and batch_size >= 1")

    def sample() -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.randint(0, vocab_size, (batch_size, length), generator=generator)  # (B, T)
        y = torch.full_like(x, IGNORE_INDEX)  # (B, T)
        y[:, 1:] = x[:, :-1]
        return x, y

    return sample


def train_previous_token(
    config: AttentionLMConfig, steps: int, length: int = 16, batch_size: int = 32, lr: float = 3e-3, seed: int = 0,
    w_q_gain: float = 1.0,
) -> tuple[OneLayerAttentionLM, TrainHistory]:
    """Train a fresh seeded OneLayerAttentionLM on the previous-token task (constant lr, no warm-up); return it and its history.

    w_q_gain multiplies W_Q's initial weights (the same draw, the same batches): with scale=False and 1/sqrt(d_k) the run
    starts from exactly the scores of the scaled model, notebook 05's control for the step size.
    """
    generator = set_seed(seed)
    model = OneLayerAttentionLM(config)
    with torch.no_grad():
        model.w_q.weight.mul_(w_q_gain)
    batches = previous_token_batches(config.vocab_size, length, batch_size, generator)
    history = train(model, batches, TrainConfig(steps=steps, lr=lr, warmup_steps=0, schedule="constant", progress=False))
    return model, history


@torch.no_grad()
def previous_token_accuracy(model: LanguageModel, vocab_size: int, length: int, count: int = 256, seed: int = 1) -> float:
    """Share of positions t >= 1 where the model's top prediction is the token at t - 1 (fresh seeded inputs)."""
    x, y = previous_token_batches(vocab_size, length, count, torch.Generator().manual_seed(seed))()
    model.eval()
    predicted = model(x.to(model.device)).argmax(-1).cpu()  # (N, T)
    return float((predicted[:, 1:] == y[:, 1:]).float().mean())


def previous_token_projections(T: int) -> tuple[torch.Tensor, torch.Tensor]:
    """W_Q, W_K (T, d_k = T) for one-hot position embeddings (E = I_T) with which causal scaled dot-product attention
    puts between 0.9 and 0.97 of every query i >= 1's weight on key i - 1 (0.935).

    Query i asks for position i - 1 (W_Q shifts), keys are the positions themselves (W_K = I); query i has i other
    keys of score 0, so its score s_i on key i - 1 gives that key the weight e^s_i / (e^s_i + i): e^s_i = 14.4 i
    gives 0.935, after the division by sqrt(d_k).
    """
    if T < 1:
        raise ValueError(f"T must be at least 1, got {T}")
    rows = torch.arange(1, T, dtype=torch.float32)  # (T - 1,): queries 1 .. T - 1
    w_q = torch.zeros(T, T)
    w_q[1:, :-1] = torch.diag(math.sqrt(T) * torch.log(rows * 0.935 / 0.065))  # row i (position i) -> column i - 1
    return w_q, torch.eye(T)


__all__ = ["AttentionLMConfig", "OneLayerAttentionLM", "previous_token_batches", "train_previous_token", "previous_token_accuracy",
           "previous_token_projections"]
