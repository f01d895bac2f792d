"""Scaled dot-product attention and multi-head attention, with an explicit path and a fused one.

    Attn(Q, K, V) = softmax(Q K^T / sqrt(d_k) + mask + bias) V

The explicit path computes the weights so they can be shown (teaching, widgets); the fused
path calls torch.nn.functional.scaled_dot_product_attention, which is faster and uses less
memory but never materialises the weights. Tests hold the two equal.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from utils.positional import apply_rotary


def causal_mask(T: int, device: torch.device | str | None = None, offset: int = 0) -> torch.Tensor:
    """Additive mask (T, offset+T): 0 where query i (at position offset+i) may see key j <= offset+i, -inf above."""
    if T < 0 or offset < 0:
        raise ValueError(f"T and offset must be >= 0, got {T} and {offset}")
    future = torch.ones(T, offset + T, dtype=torch.bool, device=device).triu(diagonal=offset + 1)  # (T, offset+T)
    return torch.zeros(T, offset + T, device=device).masked_fill(future, float("-inf"))


def attention_weights(
    q: torch.Tensor, k: torch.Tensor, mask: torch.Tensor | None = None, bias: torch.Tensor | None = None
) -> torch.Tensor:
    """softmax(q k^T / sqrt(d_k) + mask + bias) over keys: q (..., Tq, d_k), k (..., Tk, d_k) -> (..., Tq, Tk)."""
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"queries and keys need the same size d_k, got {q.shape[-1]} and {k.shape[-1]}")
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., Tq, Tk)
    if mask is not None:
        scores = scores + mask
    if bias is not None:
        scores = scores + bias
    return torch.softmax(scores.float(), dim=-1).to(q.dtype)


def scaled_dot_product_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    mask: torch.Tensor | None = None,
    bias: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The explicit path: (weights @ v, weights); q (..., Tq, d_k), k (..., Tk, d_k), v (..., Tk, d_v)."""
    weights = attention_weights(q, k, mask, bias)  # (..., Tq, Tk)
    return weights @ v, weights  # (..., Tq, d_v), (..., Tq, Tk)


def _combine(mask: torch.Tensor | None, bias: torch.Tensor | None, dtype: torch.dtype) -> torch.Tensor | None:
    """mask + bias as one additive float mask (None if both are None)."""
    if bias is None:
        return mask
    bias = bias.to(dtype)
    return bias if mask is None else mask + bias


class KVCache:
    """Keys and values of the tokens seen so far, for one attention layer: each (B, H_kv, T_seen, Dh), grown by torch.cat."""

    def __init__(self) -> None:
        self.k: torch.Tensor | None = None
        self.v: torch.Tensor | None = None

    @property
    def length(self) -> int:
        """Number of cached positions."""
        return 0 if self.k is None else self.k.shape[-2]

    @property
    def nbytes(self) -> int:
        """Bytes held by the cached keys and values (what is stored, including unused preallocated room)."""
        return sum(t.numel() * t.element_size() for t in self._storage() if t is not None)

    def _storage(self) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        return self.k, self.v

    def append(self, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Add the new positions' keys and values (B, H, T_new, Dh); return all of them."""
        self.k = k if self.k is None else torch.cat([self.k, k], dim=-2)  # (B, H, T_seen, Dh)
        self.v = v if self.v is None else torch.cat([self.v, v], dim=-2)  # (B, H, T_seen, Dh)
        return self.k, self.v

    def reorder(self, index: torch.Tensor) -> None:
        """Keep rows `index` (N,) of the batch, in that order (beam search: each beam takes its parent's cache)."""
        if self.k is not None:
            self.k, self.v = self.k.index_select(0, index), self.v.index_select(0, index)  # (N, H, T_seen, Dh)


class PreallocatedKVCache(KVCache):
    """A KVCache that allocates room for `capacity` positions once and writes new keys into it (no re-copying)."""

    def __init__(self, capacity: int) -> None:
        super().__init__()
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1, got {capacity}")
        self.capacity = capacity
        self._k: torch.Tensor | None = None  # (B, H, capacity, Dh)
        self._v: torch.Tensor | None = None
        self._length = 0

    @property
    def length(self) -> int:
        """Number of cached positions."""
        return self._length

    def _storage(self) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        return self._k, self._v

    def append(self, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Write the new keys and values (B, H, T_new, Dh) into the buffer; return views of the filled part."""
        if self._k is None:
            B, H, _, Dh = k.shape
            self._k = k.new_empty(B, H, self.capacity, Dh)  # (B, H, capacity, Dh)
            self._v = v.new_empty(B, H, self.capacity, v.shape[-1])
        end = self._length + k.shape[-2]
        if end > self.capacity:
            raise ValueError(f"the cache holds {self.capacity} positions; {end} were asked for (make it larger)")
        self._k[:, :, self._length : end] = k
        self._v[:, :, self._length : end] = v
        self._length = end
        self.k, self.v = self._k[:, :, :end], self._v[:, :, :end]  # views, (B, H, T_seen, Dh)
        return self.k, self.v

    def reorder(self, index: torch.Tensor) -> None:
        """Keep rows `index` (N,) of the batch, in that order."""
        if self._k is not None:
            self._k, self._v = self._k.index_select(0, index), self._v.index_select(0, index)
            self.k, self.v = self._k[:, :, : self._length], self._v[:, :, : self._length]


class MultiHeadAttention(nn.Module):
    """h heads of scaled dot-product attention on d_model/h-dimensional subspaces, concatenated, then W_O.

    n_kv_heads (default: n_heads) < n_heads shares each key/value head among n_heads / n_kv_heads query
    heads: grouped-query attention (Ainslie et al. 2023), multi-query attention (Shazeer 2019) when 1.
    The cache then stores n_kv_heads heads, not n_heads.
    """

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0, n_kv_heads: int | None = None):
        super().__init__()
        if d_model % n_heads:
            raise ValueError(f"d_model ({d_model}) must be divisible by n_heads ({n_heads})")
        n_kv_heads = n_heads if n_kv_heads is None else n_kv_heads
        if n_kv_heads < 1 or n_heads % n_kv_heads:
            raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")
        self.d_model, self.n_heads, self.d_head = d_model, n_heads, d_model // n_heads
        self.n_kv_heads = n_kv_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, n_kv_heads * self.d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * self.d_head)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, H*Dh) -> (B, H, T, Dh): head h gets columns h*Dh .. (h+1)*Dh - 1 (H: query or key/value heads)."""
        B, T, width = x.shape
        return x.view(B, T, width // self.d_head, self.d_head).transpose(1, 2)  # (B, H, T, Dh)

    def merge_heads(self, x: torch.Tensor) -> torch.Tensor:
        """(B, H, T, D/H) -> (B, T, D): the heads' outputs side by side."""
        B, H, T, Dh = x.shape
        return x.transpose(1, 2).reshape(B, T, H * Dh)  # (B, T, D)

    def forward(
        self,
        x: torch.Tensor,
        causal: bool = True,
        bias: torch.Tensor | None = None,
        rotary: tuple[torch.Tensor, torch.Tensor] | None = None,
        need_weights: bool = False,
        cache: KVCache | None = None,
        queries: int | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Attend from x (B, T, D) to x (and to the cached past); returns y (B, T, D) and weights (B, H, T, T_all) or None.

        bias: (H, T, T_all) added to the scores (relative positions). rotary: (cos, sin) of the
        new tokens' positions. cache: past keys and values, extended in place with x's.
        queries: only the last `queries` positions of x ask (y is then (B, queries, D)); the keys
        and values still come from all of x, so their rows of y are what the full run gives.
        """
        if x.dim() != 3 or x.shape[-1] != self.d_model:
            raise ValueError(f"expected input (B, T, {self.d_model}), got {tuple(x.shape)}")
        T = x.shape[1]
        T_q = T if queries is None else queries
        if not 1 <= T_q <= T:
            raise ValueError(f"queries must be between 1 and the {T} positions of x, got {queries}")
        # 1) project and split into heads
        q = self.split_heads(self.q_proj(x[:, T - T_q :]))  # (B, H, T_q, Dh)
        k, v = self.split_heads(self.k_proj(x)), self.split_heads(self.v_proj(x))  # (B, H_kv, T, Dh)
        if rotary is not None:
            cos, sin = rotary  # (T, Dh/2) or (B, T, Dh/2): the angles of x's positions
            q, k = apply_rotary(q, cos[..., T - T_q :, :], sin[..., T - T_q :, :]), apply_rotary(k, cos, sin)
        if bias is not None:
            bias = bias[..., T - T_q :, :]  # (H, T_q, T_all): the asking positions' rows
        past = T - T_q  # keys before the first asking position: x's own, then the cache's
        if cache is not None:
            past += cache.length
            k, v = cache.append(k, v)  # (B, H_kv, T_all, Dh)
        if self.n_kv_heads != self.n_heads:  # each key/value head serves n_heads / n_kv_heads query heads
            group = self.n_heads // self.n_kv_heads
            k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)  # (B, H, T_all, Dh)
        T = T_q
        # 2) attend: explicit (weights visible) or fused
        masked = causal and (T > 1 or bias is not None)
        dropout = self.dropout if self.training else 0.0
        weights = None
        if masked and not need_weights and bias is None and past == 0:  # training: the kernel masks, no mask tensor built
            out = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=True)  # (B, H, T, Dh)
        else:
            mask = causal_mask(T, x.device, offset=past).to(q.dtype) if masked else None  # (T, past+T)
            if need_weights:
                out, weights = scaled_dot_product_attention(q, k, v, mask, bias)  # (B, H, T, Dh), (B, H, T, past+T)
                if dropout:
                    out = F.dropout(weights, dropout) @ v
            else:
                out = F.scaled_dot_product_attention(q, k, v, attn_mask=_combine(mask, bias, q.dtype), dropout_p=dropout)
        # 3) concatenate the heads and mix them
        return self.out_proj(self.merge_heads(out)), weights  # (B, T, D)


__all__ = [
    "causal_mask", "attention_weights", "scaled_dot_product_attention", "KVCache", "PreallocatedKVCache",
    "MultiHeadAttention",
]
