"""A Transformer whose attention reaches back only a fixed number of tokens: the control for "the whole context".

Layer l may attend from position i to keys i - bands[l] .. i (a band of the causal mask). Stacked
layers compose their bands, so the whole model reads tokens i - sum(bands) .. i: with bands (1, 2)
a two-block model predicts the next token from the last 4 tokens, the reach of a fixed window of 4.
Everything else (sizes, learned positions, training) is the TransformerLM's, so a banded model and a
full one differ only in how far back they can look.
"""

from __future__ import annotations

import torch

from utils.transformer import TransformerConfig, TransformerLM


def band_bias(T: int, offset: int, back: int, device: torch.device | str | None = None) -> torch.Tensor:
    """Additive bias (T, offset+T): 0 where query offset+i may see key j with offset+i-back <= j, -inf further back."""
    if back < 0:
        raise ValueError(f"back counts tokens before the query and must be >= 0, got {back}")
    query = torch.arange(offset, offset + T, device=device).unsqueeze(1)  # (T, 1)
    key = torch.arange(offset + T, device=device).unsqueeze(0)  # (1, offset+T)
    return torch.zeros(T, offset + T, device=device).masked_fill(query - key > back, float("-inf"))


def bands_for_reach(reach: int, n_layer: int) -> tuple[int, ...]:
    """Per-layer look-backs whose sum is reach - 1, as even as possible: the stack then reads the last `reach` tokens."""
    if reach < 1 or n_layer < 1:
        raise ValueError(f"reach and n_layer must be >= 1, got {reach} and {n_layer}")
    total = reach - 1
    return tuple(total // n_layer + (1 if layer >= n_layer - total % n_layer else 0) for layer in range(n_layer))


class BandedTransformerLM(TransformerLM):
    """A TransformerLM whose block l attends only to the last bands[l] tokens before each position (and itself)."""

    def __init__(self, config: TransformerConfig, reach: int = 4):
        if config.positional in ("relative", "rotary"):
            raise ValueError("banding is written for absolute positions ('learned', 'sinusoidal' or 'none')")
        super().__init__(config)
        self.reach = reach
        self.bands = bands_for_reach(reach, config.n_layer)

    def _run(self, idx, need_weights=False, caches=None, offset=0, last_only=False):
        """TransformerLM._run with each block's scores banded: logits (B, T, V) and the weights if asked."""
        x = self._embed(idx, offset)  # (B, T, D)
        T = idx.shape[1]
        all_weights = []
        for layer, block in enumerate(self.blocks):
            queries = 1 if last_only and layer == len(self.blocks) - 1 else None
            bias = band_bias(T, offset, self.bands[layer], idx.device).to(x.dtype)  # (T, offset+T)
            x, weights = block(x, need_weights, None if caches is None else caches[layer], queries, bias=bias)
            if need_weights:
                all_weights.append(weights)
        return self.lm_head(self.final_norm(x)), all_weights  # (B, T, V), or (B, 1, V) if last_only


__all__ = ["band_bias", "bands_for_reach", "BandedTransformerLM"]
