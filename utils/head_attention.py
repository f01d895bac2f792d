"""Multi-head attention written head by head, and the cases that grade notebook 05's exercise 1 (find the bug).

    head_r = Attn(X W_Q[:, cols_r], X W_K[:, cols_r], X W_V[:, cols_r]),  cols_r = the r-th slice of width D / H

Each head is section 4's attention on its own slice, scaled by the square root of its own width; the heads' outputs
are put side by side. No biases and no output projection: what the exercise's colleague wrote.
"""

from __future__ import annotations

import torch

from utils.attention import causal_mask, scaled_dot_product_attention
from utils.exercise_cases import Case, case


def heads_attention(x: torch.Tensor, W_Q: torch.Tensor, W_K: torch.Tensor, W_V: torch.Tensor, n_heads: int,
                    causal: bool = True) -> torch.Tensor:
    """Multi-head attention of x (B, T, D) with W_Q, W_K, W_V (D, D), heads side by side, no output projection: (B, T, D)."""
    B, T, D = x.shape
    if n_heads < 1 or D % n_heads:
        raise ValueError(f"n_heads must be a positive divisor of the width D = {D}, got {n_heads}")
    width = D // n_heads
    mask = causal_mask(T, x.device) if causal else None  # (T, T) or None
    heads = []
    for r in range(n_heads):
        cols = slice(r * width, (r + 1) * width)
        out, _ = scaled_dot_product_attention(x @ W_Q[:, cols], x @ W_K[:, cols], x @ W_V[:, cols], mask)  # (B, T, width)
        heads.append(out)
    return torch.cat(heads, dim=-1)  # (B, T, D)


def random_head_cases(seed: int, count: int) -> list[Case]:
    """`count` generated cases (x, W_Q, W_K, W_V, n_heads, causal): widths 2-16 per head, 1-8 heads, lengths 1-24,
    weights from 0.3 to 3 times 1/sqrt(D) (flat to sharp attention), with and without the causal mask."""
    generator = torch.Generator().manual_seed(seed)
    cases = []
    for _ in range(count):
        n_heads = [1, 2, 3, 4, 8][int(torch.randint(0, 5, (1,), generator=generator))]
        width = int(torch.randint(2, 17, (1,), generator=generator))
        B, T = int(torch.randint(1, 4, (1,), generator=generator)), int(torch.randint(1, 25, (1,), generator=generator))
        D = n_heads * width
        gain = [0.3, 1.0, 3.0][int(torch.randint(0, 3, (1,), generator=generator))] / D ** 0.5
        x = torch.randn(B, T, D, generator=generator)  # (B, T, D)
        W_Q, W_K, W_V = (gain * torch.randn(D, D, generator=generator) for _ in range(3))  # (D, D) each
        causal = bool(torch.randint(0, 2, (1,), generator=generator))
        cases.append(case(x=x, W_Q=W_Q, W_K=W_K, W_V=W_V, n_heads=n_heads, causal=causal))
    return cases


def trained_head_cases(model: torch.nn.Module, vocab_size: int, lengths: tuple[int, ...], seed: int) -> list[Case]:
    """Cases with a trained OneLayerAttentionLM's W_Q, W_K, W_V (as x @ W) on its embeddings of random token ids."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        weights = [layer.weight.T.clone() for layer in (model.w_q, model.w_k, model.w_v)]  # (D, D) each: x @ W
        cases = []
        for T in lengths:
            x = model.embedding(torch.randint(0, vocab_size, (2, T), generator=generator))  # (2, T, D)
            cases.append(case(x=x.clone(), W_Q=weights[0], W_K=weights[1], W_V=weights[2],
                              n_heads=model.config.n_head, causal=True))
    return cases
