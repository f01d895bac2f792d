"""What attention sees of positions: the score that position alone contributes, against the offset i - j.

Plain functions behind the positional-encoding widget (utils.widgets.positional), one per way of
giving a Transformer positions; every curve is indexed by the offset o = i - j = 0 .. T-1
(a causal model's query i reads keys j <= i only):
    added (sinusoidal, learned)  position-only inputs p_0 .. p_{T-1} through a trained model's first
                                 block (its LayerNorm, then W_Q and W_K with their biases), per head
                                 s_h(i, j) = q_i . k_j / sqrt(d_head), averaged over the queries i >= o;
    relative                     the trained bias b_h(o) itself (the same for every i);
    rotary                       a fixed q and k, q rotated to position i and k to position i - o,
                                 s = (R_i q) . (R_{i-o} k) / sqrt(d), once for each of several
                                 absolute positions i: the curves coincide (offset only).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch

from utils.positional import apply_rotary, rotary_cos_sin, sinusoidal_encoding

BASES = (100.0, 300.0, 1000.0, 3000.0, 10000.0, 30000.0, 100000.0)  # the base slider's stops (10000: the usual)


def offset_average(scores: torch.Tensor) -> torch.Tensor:
    """(H, T, T) scores of query i and key j -> (H, T): entry [h, o] is the mean over i >= o of scores[h, i, i - o]."""
    if scores.dim() != 3 or scores.shape[1] != scores.shape[2]:
        raise ValueError(f"expected scores of shape (H, T, T), got {tuple(scores.shape)}")
    T = scores.shape[-1]
    return torch.stack([scores.diagonal(-o, dim1=1, dim2=2).mean(-1) for o in range(T)], dim=-1)  # (H, T)


def position_inputs(model, n_positions: int, base: float = 10000.0) -> torch.Tensor:
    """The position-only input vectors p_0 .. p_{T-1} of a model with added positions: (T, d_model)."""
    kind = model.config.positional
    d = model.config.d_model
    if kind == "sinusoidal":
        return sinusoidal_encoding(n_positions, d, base=base)  # (T, d): what _embed adds to the tokens
    if kind == "learned":
        table = model.position_embedding.embedding.weight.detach().float().cpu()  # (max_len, d)
        if n_positions > table.shape[0]:
            raise ValueError(f"the learned table has {table.shape[0]} positions only, asked for {n_positions}")
        return table[:n_positions]
    raise ValueError(f"{kind!r} positions are not added to the input: use relative_offset_bias or rotary_offset_scores")


@torch.no_grad()
def added_offset_scores(model, n_positions: int, base: float = 10000.0) -> np.ndarray:
    """Per head, the score of position-only inputs through the first block's LayerNorm, W_Q and W_K, by offset: (H, T)."""
    block = model.blocks[0]
    attention = block.attention
    x = position_inputs(model, n_positions, base).to(model.device)  # (T, D)
    if block.pre_norm:
        x = block.norm1(x)  # (T, D): what the first attention reads (a Post-LN block reads x itself)
    q = attention.q_proj(x).view(n_positions, attention.n_heads, attention.d_head).transpose(0, 1)  # (H, T, Dh)
    k = attention.k_proj(x).view(n_positions, attention.n_kv_heads, attention.d_head).transpose(0, 1)  # (H_kv, T, Dh)
    k = k.repeat_interleave(attention.n_heads // attention.n_kv_heads, dim=0)  # (H, T, Dh)
    scores = q @ k.transpose(1, 2) / math.sqrt(attention.d_head)  # (H, T, T)
    return offset_average(scores.float().cpu()).numpy()  # (H, T)


@torch.no_grad()
def relative_offset_bias(model, n_positions: int) -> np.ndarray:
    """The trained relative bias per head by offset o = i - j (clipped past max_distance - 1 as in the model): (H, T)."""
    if model.relative_bias is None:
        raise ValueError(f"the model has {model.config.positional!r} positions, not a relative bias")
    bias = model.relative_bias(n_positions).float().cpu()  # (H, T, T)
    return offset_average(bias).numpy()  # (H, T): constant along each diagonal, so the mean is the value


def fixed_query_key(d: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """The fixed content vectors q and k (d,) the rotary view rotates: seeded normal draws, q != k."""
    if d < 2 or d % 2:
        raise ValueError(f"rotary rotates pairs of dimensions: d must be even and >= 2, got {d}")
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(d, generator=generator), torch.randn(d, generator=generator)


def rotary_offset_scores(
    q: torch.Tensor, k: torch.Tensor, n_offsets: int, query_positions: Sequence[int], base: float = 10000.0,
    cos_sin=rotary_cos_sin,
) -> np.ndarray:
    """(R_i q) . (R_{i-o} k) / sqrt(d) for each absolute query position i (rows) and offset o = 0 .. n_offsets-1 (columns).

    Both vectors are rotated at their own absolute positions (cos_sin gives the angles, the package's
    rotary_cos_sin by default); offsets that would put the key before position 0 are NaN.
    """
    d = q.shape[-1]
    if k.shape != q.shape or q.dim() != 1:
        raise ValueError(f"q and k must be two vectors of one size, got {tuple(q.shape)} and {tuple(k.shape)}")
    if min(query_positions) < 0 or n_offsets < 1:
        raise ValueError("query positions must be >= 0 and there must be at least one offset")
    length = max(query_positions) + 1
    cos, sin = cos_sin(length, d, base)  # (L, d/2) each
    q_at = apply_rotary(q.expand(length, d), cos, sin)  # (L, d): q placed at every position
    k_at = apply_rotary(k.expand(length, d), cos, sin)  # (L, d)
    rows = np.full((len(query_positions), n_offsets), np.nan)
    for row, i in enumerate(query_positions):
        keys = [i - o for o in range(n_offsets) if i - o >= 0]
        rows[row, : len(keys)] = (k_at[keys] @ q_at[i] / math.sqrt(d)).numpy()  # (len(keys),)
    return rows


def offset_only_spread(rows: np.ndarray) -> float:
    """Largest difference between the curves of different query positions at one offset (0: the score is offset only)."""
    return float(np.nanmax(np.nanmax(rows, axis=0) - np.nanmin(rows, axis=0)))


def rotated_vectors(q: torch.Tensor, n_positions: int, base: float = 10000.0) -> np.ndarray:
    """The fixed vector q rotated to positions 0 .. n_positions-1 (what the rotary heatmap shows): (T, d)."""
    cos, sin = rotary_cos_sin(n_positions, q.shape[-1], base)  # (T, d/2) each
    return apply_rotary(q.expand(n_positions, q.shape[-1]), cos, sin).numpy()  # (T, d)
