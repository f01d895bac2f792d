"""Positional information for attention: sinusoidal, learned absolute, relative bias, rotary (RoPE).

Attention and the feed-forward network ignore the order of their inputs, so a Transformer
needs one of these to tell "屡败屡战" from "屡战屡败":
    sinusoidal  PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)),
                added to the token embeddings; PE(pos + k) = M_k PE(pos) for a fixed rotation M_k.
    learned     one trained vector per position, added to the token embeddings; positions
                past the trained length have no vector.
    relative    a trained bias b_ij = f(i - j) added to the attention scores (per head);
                offsets beyond max_distance share the last value, so any length works.
    rotary      q and k rotated by position-dependent angles, so q_i . k_j depends on
                the content and on i - j only.
"""

from __future__ import annotations

import torch
from torch import nn

POSITIONAL_KINDS = ("none", "sinusoidal", "learned", "relative", "rotary")


def _frequencies(d: int, base: float, device: torch.device | str | None = None) -> torch.Tensor:
    """Angular frequencies 1 / base^(2i/d) for i = 0 .. ceil(d/2) - 1."""
    return base ** (-torch.arange(0, d, 2, device=device, dtype=torch.float32) / d)  # (ceil(d/2),)


def sinusoidal_encoding(
    T: int, d: int, offset: int = 0, base: float = 10000.0, device: torch.device | str | None = None
) -> torch.Tensor:
    """Sinusoidal encodings of positions offset .. offset+T-1: (T, d), sin in even and cos in odd columns."""
    if T < 0 or d < 1 or offset < 0:
        raise ValueError(f"need T >= 0, d >= 1 and offset >= 0, got T={T}, d={d}, offset={offset}")
    positions = torch.arange(offset, offset + T, device=device, dtype=torch.float32)  # (T,)
    angles = positions[:, None] * _frequencies(d, base, device)[None, :]  # (T, ceil(d/2))
    encoding = torch.zeros(T, d, device=device)  # (T, d)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles[:, : d // 2])
    return encoding


def sinusoidal_shift_matrix(k: int, d: int, base: float = 10000.0) -> torch.Tensor:
    """The fixed (d, d) block-rotation M_k with PE(pos + k) = M_k @ PE(pos) for every pos (d even)."""
    if d % 2:
        raise ValueError(f"the shift matrix needs an even dimension d, got {d}")
    angles = k * _frequencies(d, base)  # (d/2,)
    matrix = torch.zeros(d, d)
    cos, sin = torch.cos(angles), torch.sin(angles)
    rows = torch.arange(0, d, 2)
    # (sin, cos)(pos + k) = [[cos, sin], [-sin, cos]] (sin, cos)(pos), one 2x2 block per frequency
    matrix[rows, rows], matrix[rows, rows + 1] = cos, sin
    matrix[rows + 1, rows], matrix[rows + 1, rows + 1] = -sin, cos
    return matrix


class LearnedPositionalEmbedding(nn.Module):
    """One trained d-dimensional vector per position 0 .. max_len-1."""

    def __init__(self, max_len: int, d: int):
        super().__init__()
        if max_len < 1 or d < 1:
            raise ValueError(f"max_len and d must be at least 1, got {max_len} and {d}")
        self.max_len = max_len
        self.embedding = nn.Embedding(max_len, d)

    def forward(self, T: int, offset: int = 0) -> torch.Tensor:  # -> (T, d)
        """Vectors of positions offset .. offset+T-1; ValueError past the trained length."""
        if offset + T > self.max_len:
            raise ValueError(
                f"learned positions exist for 0 .. {self.max_len - 1} only, asked for up to {offset + T - 1}; "
                f"crop the input to the last {self.max_len} tokens or use another positional encoding"
            )
        positions = torch.arange(offset, offset + T, device=self.embedding.weight.device)  # (T,)
        return self.embedding(positions)  # (T, d)


class RelativePositionBias(nn.Module):
    """A trained per-head bias b_ij = f(i - j) for query i and key j, offsets clipped to +-(max_distance - 1)."""

    def __init__(self, n_heads: int, max_distance: int):
        super().__init__()
        if n_heads < 1 or max_distance < 1:
            raise ValueError(f"n_heads and max_distance must be at least 1, got {n_heads} and {max_distance}")
        self.n_heads = n_heads
        self.max_distance = max_distance
        self.bias = nn.Embedding(2 * max_distance - 1, n_heads)  # one row per offset i - j
        nn.init.zeros_(self.bias.weight)

    def forward(self, T_q: int, T_k: int | None = None, offset: int = 0) -> torch.Tensor:  # -> (H, T_q, T_k)
        """Bias of queries at positions offset .. offset+T_q-1 against keys at 0 .. T_k-1 (T_k = offset + T_q)."""
        T_k = offset + T_q if T_k is None else T_k
        device = self.bias.weight.device
        query_pos = torch.arange(offset, offset + T_q, device=device)  # (T_q,)
        key_pos = torch.arange(T_k, device=device)  # (T_k,)
        distance = (query_pos[:, None] - key_pos[None, :]).clamp(-self.max_distance + 1, self.max_distance - 1)
        return self.bias(distance + self.max_distance - 1).permute(2, 0, 1)  # (H, T_q, T_k)


def rotary_cos_sin(
    T: int, d_head: int, base: float = 10000.0, offset: int = 0, device: torch.device | str | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of the RoPE angles pos * base^(-2i/d_head) for positions offset .. offset+T-1: each (T, d_head/2)."""
    if d_head % 2:
        raise ValueError(f"rotary encoding rotates pairs of dimensions: d_head must be even, got {d_head}")
    positions = torch.arange(offset, offset + T, device=device, dtype=torch.float32)  # (T,)
    angles = positions[:, None] * _frequencies(d_head, base, device)[None, :]  # (T, d_head/2)
    return torch.cos(angles), torch.sin(angles)


def apply_rotary(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate each pair (x_i, x_{i + d/2}) of x (..., T, d) by its angle; cos, sin (T, d/2), or (..., T, d/2) per row."""
    half = x.shape[-1] // 2
    if cos.shape[-2:] != (x.shape[-2], half) or cos.dim() > x.dim():
        raise ValueError(f"cos/sin of shape {tuple(cos.shape)} do not fit x of shape {tuple(x.shape)}")
    first, second = x[..., :half], x[..., half:]  # (..., T, d/2) each
    cos, sin = cos.to(x.dtype), sin.to(x.dtype)
    return torch.cat([first * cos - second * sin, first * sin + second * cos], dim=-1)  # (..., T, d)


__all__ = [
    "POSITIONAL_KINDS",
    "sinusoidal_encoding",
    "sinusoidal_shift_matrix",
    "LearnedPositionalEmbedding",
    "RelativePositionBias",
    "rotary_cos_sin",
    "apply_rotary",
]
