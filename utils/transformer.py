"""A decoder-only (or, with causal=False, bidirectional) Transformer language model, in one file.

Reading order: TransformerConfig -> FeedForward -> Block -> TransformerState -> TransformerLM.

    tokens -> embedding (+ absolute positions) -> n_layer x Block -> final LayerNorm -> logits
    Block, Pre-LN:  x = x + Attn(LN(x));  x = x + FFN(LN(x))      (trains at higher learning rates)
    Block, Post-LN: x = LN(x + Attn(x));  x = LN(x + FFN(x))      (the 2017 original)

Positions (config.positional, see utils.positional): "none", "sinusoidal" or "learned" are
added to the embeddings (for "sinusoidal" the token embeddings are first scaled by
sqrt(d_model), as in the 2017 paper, so the fixed encoding does not drown them);
"relative" adds a bias b_ij = f(i - j) to every layer's scores (one
table shared by all layers); "rotary" rotates q and k in every layer. Only "learned" has a
hard length limit: model.context_length is config.context_length then, and None otherwise
(config.context_length is always the training length).

Generation: with use_kv_cache = True (the default) start_state()/step() keep every layer's
keys and values, so each new token costs one position, not the whole history. A model
with causal=False cannot be cached (earlier tokens would have to see later ones), so it
always re-runs the history. For "learned"
positions the cache cannot grow past context_length; from then on step() falls back to a
sliding window: it re-runs the last context_length tokens, exactly what the default
(use_kv_cache = False) path of utils.interface.LanguageModel does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from utils.attention import KVCache, MultiHeadAttention, PreallocatedKVCache
from utils.interface import LanguageModel, register_model
from utils.positional import (
    POSITIONAL_KINDS,
    LearnedPositionalEmbedding,
    RelativePositionBias,
    rotary_cos_sin,
    sinusoidal_encoding,
)


@dataclass
class TransformerConfig:
    """Sizes and switches of a TransformerLM."""

    vocab_size: int  # number of token ids
    context_length: int = 128  # training length; the hard limit for "learned" positions
    n_layer: int = 4  # number of blocks
    n_head: int = 4  # attention heads per block
    d_model: int = 128  # width of the residual stream
    d_ff: int | None = None  # hidden width of the feed-forward network (None: 4 * d_model)
    dropout: float = 0.0  # dropout on embeddings, attention weights and residual branches
    positional: str = "learned"  # one of POSITIONAL_KINDS
    norm_placement: str = "pre"  # "pre" (LN inside the residual branch) or "post" (LN after the sum)
    causal: bool = True  # mask the future (a language model); False: every token sees every token
    activation: str = "gelu"  # "gelu" or "relu" in the feed-forward network
    tie_weights: bool = False  # share the token embedding with the output layer
    rotary_base: float = 10000.0  # base of the rotary angles
    n_kv_head: int | None = None  # key/value heads (None: n_head); fewer: grouped-query, 1: multi-query attention

    def __post_init__(self) -> None:
        if self.vocab_size < 1 or self.context_length < 1 or self.n_layer < 1 or self.n_head < 1:
            raise ValueError("vocab_size, context_length, n_layer and n_head must all be at least 1")
        if self.d_model % self.n_head:
            raise ValueError(f"d_model ({self.d_model}) must be divisible by n_head ({self.n_head})")
        if self.n_kv_head is not None and (self.n_kv_head < 1 or self.n_head % self.n_kv_head):
            raise ValueError(f"n_head ({self.n_head}) must be a multiple of n_kv_head ({self.n_kv_head})")
        if self.positional not in POSITIONAL_KINDS:
            raise ValueError(f"unknown positional {self.positional!r}: choose one of {', '.join(POSITIONAL_KINDS)}")
        if self.positional == "rotary" and (self.d_model // self.n_head) % 2:
            raise ValueError(f"rotary positions need an even head size, got d_model/n_head = {self.d_model // self.n_head}")
        if self.norm_placement not in ("pre", "post"):
            raise ValueError(f"norm_placement must be 'pre' or 'post', got {self.norm_placement!r}")
        if self.activation not in ("gelu", "relu"):
            raise ValueError(f"activation must be 'gelu' or 'relu', got {self.activation!r}")
        if not 0 <= self.dropout < 1:
            raise ValueError(f"dropout must lie in [0, 1), got {self.dropout}")

    @property
    def ff_width(self) -> int:
        """Hidden width of the feed-forward network."""
        return self.d_ff if self.d_ff is not None else 4 * self.d_model


class FeedForward(nn.Module):
    """Position-wise MLP: up-projection, GELU or ReLU, down-projection."""

    def __init__(self, config: TransformerConfig):
        super().__init__()
        self.up = nn.Linear(config.d_model, config.ff_width)
        self.activation = nn.GELU() if config.activation == "gelu" else nn.ReLU()
        self.down = nn.Linear(config.ff_width, config.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, T, D) -> (B, T, D)
        return self.down(self.activation(self.up(x)))


class Block(nn.Module):
    """Attention then feed-forward, each with a residual connection and a LayerNorm (Pre-LN or Post-LN)."""

    def __init__(self, config: TransformerConfig):
        super().__init__()
        self.pre_norm = config.norm_placement == "pre"
        self.causal = config.causal
        self.norm1 = nn.LayerNorm(config.d_model)
        self.attention = MultiHeadAttention(config.d_model, config.n_head, config.dropout, config.n_kv_head)
        self.norm2 = nn.LayerNorm(config.d_model)
        self.ffn = FeedForward(config)
        self.dropout = nn.Dropout(config.dropout)

    def forward(
        self, x: torch.Tensor, need_weights: bool = False, cache: KVCache | None = None, queries: int | None = None,
        **positions,
    ):
        """x (B, T, D) -> (x (B, T, D), attention weights (B, H, T, T_all) or None); positions: bias or rotary.

        queries: compute only the last `queries` positions (x out: (B, queries, D)), reading all of x.
        """
        kept = x if queries is None else x[:, x.shape[1] - queries :]  # (B, T_q, D): the positions computed
        if self.pre_norm:
            attended, weights = self.attention(
                self.norm1(x), self.causal, need_weights=need_weights, cache=cache, queries=queries, **positions)
            x = kept + self.dropout(attended)  # (B, T_q, D)
            x = x + self.dropout(self.ffn(self.norm2(x)))
        else:
            attended, weights = self.attention(x, self.causal, need_weights=need_weights, cache=cache, queries=queries,
                                               **positions)
            x = self.norm1(kept + self.dropout(attended))  # (B, T_q, D)
            x = self.norm2(x + self.dropout(self.ffn(x)))
        return x, weights


@dataclass
class TransformerState:
    """What step() carries between calls: per-layer KV caches, the tokens seen, and the position count."""

    caches: list[KVCache]
    tokens: torch.Tensor | None = None  # (B, T_seen), kept for the sliding-window fallback
    position: int = 0
    sliding: bool = False  # True once "learned" positions ran out and step() re-runs a window

    def reorder(self, index: torch.Tensor) -> "TransformerState":
        """Keep batch rows `index` (N,), in that order, in every cache (beam search: beams follow their parents)."""
        for cache in self.caches:
            cache.reorder(index)
        if self.tokens is not None:
            self.tokens = self.tokens.index_select(0, index)  # (N, T_seen)
        return self


@register_model
class TransformerLM(LanguageModel):
    """Token ids (B, T) -> next-token logits (B, T, V) through n_layer Transformer blocks."""

    config_class = TransformerConfig

    def __init__(self, config: TransformerConfig):
        super().__init__()
        self.config = config
        self.vocab_size = config.vocab_size
        self.context_length = config.context_length if config.positional == "learned" else None
        self.use_kv_cache = True
        self.token_embedding = nn.Embedding(config.vocab_size, config.d_model)
        self.position_embedding = (
            LearnedPositionalEmbedding(config.context_length, config.d_model) if config.positional == "learned" else None
        )
        self.relative_bias = (
            RelativePositionBias(config.n_head, config.context_length) if config.positional == "relative" else None
        )
        self.embedding_dropout = nn.Dropout(config.dropout)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layer))
        self.final_norm = nn.LayerNorm(config.d_model) if config.norm_placement == "pre" else nn.Identity()
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=False)
        self._initialise()
        if config.tie_weights:
            self.lm_head.weight = self.token_embedding.weight

    def _initialise(self) -> None:
        """Small normal weights (std 0.02), zero biases; residual output layers scaled by 1/sqrt(2 n_layer)."""
        for module in self.modules():
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if isinstance(module, nn.Linear) and module.bias is not None:
                nn.init.zeros_(module.bias)
        for block in self.blocks:
            for layer in (block.attention.out_proj, block.ffn.down):
                nn.init.normal_(layer.weight, mean=0.0, std=0.02 / math.sqrt(2 * self.config.n_layer))
        if self.relative_bias is not None:
            nn.init.zeros_(self.relative_bias.bias.weight)

    def _embed(self, idx: torch.Tensor, offset: int) -> torch.Tensor:
        """Token embeddings plus absolute positions (if any): (B, T) -> (B, T, D)."""
        T = idx.shape[1]
        x = self.token_embedding(idx)  # (B, T, D)
        if self.position_embedding is not None:
            x = x + self.position_embedding(T, offset)  # (T, D) broadcast over B
        elif self.config.positional == "sinusoidal":
            # the fixed encoding has values of size 1; tokens initialised at std 0.02 would be drowned,
            # so (as Vaswani et al. 2017, section 3.4) the token embeddings are scaled by sqrt(d_model)
            x = x * math.sqrt(self.config.d_model)
            x = x + sinusoidal_encoding(T, self.config.d_model, offset, device=idx.device).to(x.dtype)
        return self.embedding_dropout(x)

    def _position_kwargs(self, T: int, offset: int, device: torch.device) -> dict:
        """Per-layer positional inputs of the attention for positions offset .. offset+T-1."""
        if self.relative_bias is not None:
            return {"bias": self.relative_bias(T, offset + T, offset)}  # (H, T, offset+T)
        if self.config.positional == "rotary":
            return {"rotary": self._rotary_angles(T, offset, device)}
        return {}

    def _rotary_angles(self, T: int, offset: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
        """rotary_cos_sin(T, d_head, base, offset), each (T, d_head/2), sliced from a table kept between calls.

        Generation asks for one new position per step; the table (the same numbers: each angle is
        position * frequency either way) is recomputed only for a longer length, a new base or device.
        """
        d_head, base, end = self.config.d_model // self.config.n_head, self.config.rotary_base, offset + T
        key = (d_head, base, str(device))
        table = getattr(self, "_rotary_table", None)  # (key, cos, sin) with cos, sin (length, d_head/2)
        if table is None or table[0] != key or table[1].shape[0] < end:
            grown = 2 * table[1].shape[0] if table is not None and table[0] == key else 0
            length = max(end, self.config.context_length, grown)
            self._rotary_table = (key, *rotary_cos_sin(length, d_head, base, 0, device))
        _, cos, sin = self._rotary_table
        return cos[offset:end], sin[offset:end]  # (T, d_head/2) each

    def _run(
        self, idx: torch.Tensor, need_weights: bool = False, caches: list[KVCache] | None = None, offset: int = 0,
        last_only: bool = False,
    ) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Logits (B, T, V) of idx at positions offset .. offset+T-1, and each layer's weights if asked.

        last_only: the last block computes the last position alone (logits (B, 1, V)); the blocks below it
        still compute every position, which the last one reads.
        """
        x = self._embed(idx, offset)  # (B, T, D)
        positions = self._position_kwargs(idx.shape[1], offset, idx.device)
        all_weights = []
        for layer, block in enumerate(self.blocks):
            queries = 1 if last_only and layer == len(self.blocks) - 1 else None
            x, weights = block(x, need_weights, None if caches is None else caches[layer], queries, **positions)
            if need_weights:
                all_weights.append(weights)
        return self.lm_head(self.final_norm(x)), all_weights  # (B, T, V), or (B, 1, V) if last_only

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        """Next-token logits at every position (fused attention)."""
        self.validate_input(idx)
        return self._run(idx)[0]

    def next_logits(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, V)
        """Logits of the token after idx, forward(idx)[:, -1], computing only what that position needs.

        Without the mask every position reads the last token, so no cache can hold the history: each
        new token re-runs it. The last block's other positions feed no later layer, so they are skipped.
        """
        self.validate_input(idx)
        return self._run(idx, last_only=True)[0][:, -1, :]

    def forward_with_attention(self, idx: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Logits (B, T, V) and the attention weights of every layer, each (B, H, T, T) (explicit path)."""
        self.validate_input(idx)
        return self._run(idx, need_weights=True)

    def start_state(self, batch_size: int = 1, capacity: int | None = None) -> TransformerState | None:
        """Empty KV caches (preallocated for `capacity` positions if given), or None (the default re-run-the-history
        path) if use_kv_cache is off or the model is not causal."""
        if not self.use_kv_cache or not self.config.causal:  # without the causal mask, old tokens would see new ones
            return None
        if capacity is not None:
            return TransformerState([PreallocatedKVCache(capacity) for _ in self.blocks])
        return TransformerState([KVCache() for _ in self.blocks])

    def step(self, new_idx: torch.Tensor, state):
        """Feed new tokens (B, T'); return logits of the next token (B, V) and the new state."""
        if not self.use_kv_cache or not isinstance(state, TransformerState):
            return super().step(new_idx, state)
        self.validate_input(new_idx[:, -self.context_length :] if self.context_length else new_idx)
        state.tokens = new_idx if state.tokens is None else torch.cat([state.tokens, new_idx], dim=1)  # (B, T_seen)
        limit = self.context_length
        if state.sliding or (limit is not None and state.position + new_idx.shape[1] > limit):
            # learned positions ran out: re-run the last `limit` tokens (the default path's behaviour)
            state.sliding = True
            state.tokens = state.tokens[:, -limit:]
            return self._run(state.tokens)[0][:, -1, :], state
        logits, _ = self._run(new_idx, caches=state.caches, offset=state.position)  # (B, T', V)
        state.position += new_idx.shape[1]
        return logits[:, -1, :], state


def count_parameters(config: TransformerConfig) -> int:
    """Number of trainable parameters of a TransformerLM with this config (builds it on the meta device)."""
    with torch.device("meta"):
        return TransformerLM(config).num_parameters()


__all__ = ["TransformerConfig", "FeedForward", "Block", "TransformerState", "TransformerLM", "count_parameters"]
