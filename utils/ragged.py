"""Batched greedy generation from prompts of different lengths: left padding, a padding mask, and position ids.

Prompts are left-padded to one length, so every row's next token sits in the last column. Two things
then keep each row equal to its prompt generated alone: a **padding mask** (no query attends to a
padding key) and **position ids** that start at 0 at each row's first real token (padding does not
move the positions). The model's own layers (embedding, blocks, head) run; only the positions and the
mask are made per row. Supported positional kinds: "learned", "rotary" and "none".
"""

from __future__ import annotations

import torch

from utils.attention import KVCache
from utils.positional import rotary_cos_sin
from utils.transformer import TransformerLM


def left_pad(prompts: list[list[int]], pad_id: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Prompts left-padded to the longest: ids (B, T) and real (B, T), True at real tokens."""
    if not prompts or min(len(p) for p in prompts) < 1:
        raise ValueError("need at least one prompt, each with at least one token")
    T = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), T), pad_id, dtype=torch.long)  # (B, T)
    real = torch.zeros(len(prompts), T, dtype=torch.bool)  # (B, T)
    for row, prompt in enumerate(prompts):
        ids[row, T - len(prompt) :] = torch.tensor(prompt)
        real[row, T - len(prompt) :] = True
    return ids, real


def position_ids(real: torch.Tensor) -> torch.Tensor:
    """Position of every column counted from the row's first real token (padding gets 0): (B, T) -> (B, T)."""
    return (real.long().cumsum(dim=1) - 1).clamp(min=0)


def padding_bias(real_keys: torch.Tensor, n_queries: int) -> torch.Tensor:
    """Additive mask (B, 1, T_q, T_all): -inf at padding keys (a padding query may still see itself, so no row is empty)."""
    B, T_all = real_keys.shape
    bias = torch.zeros(B, 1, n_queries, T_all)
    blocked = ~real_keys[:, None, None, :].expand(B, 1, n_queries, T_all)  # (B, 1, T_q, T_all)
    own = torch.arange(T_all - n_queries, T_all)  # the queries' own columns
    blocked[:, :, torch.arange(n_queries), own] = False  # keep the diagonal: padding rows attend to themselves
    return bias.masked_fill(blocked, float("-inf"))


def _positional_inputs(model: TransformerLM, positions: torch.Tensor) -> tuple[torch.Tensor | None, dict]:
    """Per-row position inputs: (learned position vectors (B, T, D) or None, rotary kwargs)."""
    kind = model.config.positional
    if kind == "learned":
        return model.position_embedding.embedding(positions), {}  # (B, T, D)
    if kind == "rotary":
        d_head = model.config.d_model // model.config.n_head
        cos, sin = rotary_cos_sin(int(positions.max()) + 1, d_head, model.config.rotary_base)  # (P, Dh/2) each
        return None, {"rotary": (cos[positions][:, None], sin[positions][:, None])}  # (B, 1, T, Dh/2) each
    if kind == "none":
        return None, {}
    raise ValueError(f"ragged batches support learned, rotary or no positions, not {kind!r}")


def _forward(model, ids, positions, real_keys, caches, mask_padding: bool = True) -> torch.Tensor:
    """Logits (B, T, V) of new columns ids (B, T) at `positions` (B, T), attending to the cached and new real keys."""
    x = model.token_embedding(ids)  # (B, T, D)
    added, kwargs = _positional_inputs(model, positions)
    if added is not None:
        x = x + added
    if mask_padding:
        kwargs["bias"] = padding_bias(real_keys, ids.shape[1])  # (B, 1, T, T_all)
    for block, cache in zip(model.blocks, caches):
        x, _ = block(x, False, cache, **kwargs)
    return model.lm_head(model.final_norm(x))  # (B, T, V)


@torch.no_grad()
def ragged_greedy(model: TransformerLM, prompts: list[list[int]], n_new: int, pad_id: int = 0,
                  offset_positions: bool = True, mask_padding: bool = True,
                  caches: list[KVCache] | None = None) -> tuple[list[list[int]], torch.Tensor]:
    """Greedy continuation of every prompt in one batch: (new tokens per prompt, logits (B, n_new, V) of each step).

    offset_positions=False counts positions from the padded row's first column, mask_padding=False lets every token
    attend to the padding: the two mistakes, for comparison. `caches` (one empty KVCache per block, new ones if None)
    are the caches filled, so that a caller can measure them afterwards.
    """
    if not isinstance(model, TransformerLM) or not model.config.causal:
        raise ValueError("ragged_greedy needs a causal TransformerLM")
    model.eval()
    ids, real = left_pad(prompts, pad_id)  # (B, T)
    positions = position_ids(real) if offset_positions else torch.arange(ids.shape[1]).expand_as(ids)
    caches = [KVCache() for _ in model.blocks] if caches is None else caches
    if len(caches) != len(model.blocks):
        raise ValueError(f"one cache per block: {len(model.blocks)} needed, {len(caches)} given")
    logits = _forward(model, ids, positions, real, caches, mask_padding)[:, -1]  # (B, V): prefill, last column
    steps, tokens = [], []
    for _ in range(n_new):
        steps.append(logits)
        token = logits.argmax(dim=-1, keepdim=True)  # (B, 1)
        tokens.append(token)
        real = torch.cat([real, torch.ones_like(token, dtype=torch.bool)], dim=1)  # (B, T_all)
        positions = positions[:, -1:] + 1  # (B, 1): one past each row's last position
        logits = _forward(model, token, positions, real, caches, mask_padding)[:, -1]  # (B, V)
    new = torch.cat(tokens, dim=1).tolist() if tokens else [[] for _ in prompts]
    return new, torch.stack(steps, dim=1) if steps else torch.zeros(len(prompts), 0, model.vocab_size)


__all__ = ["left_pad", "position_ids", "padding_bias", "ragged_greedy"]
