"""A KV cache planned for a memory budget, by measurement: notebook 10's exercise 3 and its hidden tests.

A choice is (number of key/value heads, dtype): the KV heads a divisor of the query heads (grouped-query attention),
the dtype that of the weights and so of the cached keys and values. `served_cache_bytes` measures the caches a
ragged batch of prompts fills while `utils.ragged.ragged_greedy` writes its tokens; `best_kv_plan` tries every
choice, best first (more KV heads first, then the wider dtype), and keeps the first whose measured caches fit.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from utils.attention import KVCache
from utils.ragged import ragged_greedy
from utils.transformer import TransformerConfig, TransformerLM

KV_DTYPES = (torch.float32, torch.bfloat16)  # the storage dtypes a plan may choose, widest first

Plan = tuple[int, torch.dtype]


def kv_choices(n_head: int) -> list[Plan]:
    """Every (KV heads, dtype) for `n_head` query heads, best first: more KV heads first, then the wider dtype."""
    if n_head < 1:
        raise ValueError(f"n_head must be >= 1, got {n_head}")
    return [(kv, dtype) for kv in range(n_head, 0, -1) if n_head % kv == 0 for dtype in KV_DTYPES]


def shaped_model(vocab_size: int, n_layer: int, n_head: int, d_model: int, n_kv_head: int, dtype: torch.dtype,
                 context_length: int, seed: int = 0) -> TransformerLM:
    """An untrained causal Transformer (rotary positions) of this shape, its weights (and so its cache) in `dtype`."""
    torch.manual_seed(seed)
    config = TransformerConfig(vocab_size, context_length=context_length, n_layer=n_layer, n_head=n_head,
                               d_model=d_model, n_kv_head=n_kv_head, positional="rotary")
    return TransformerLM(config).to(dtype).eval()


def served_cache_bytes(model: TransformerLM, prompts: list[list[int]], n_new: int) -> int:
    """Bytes the caches hold (sum of `nbytes` over the layers) once ragged_greedy has written n_new tokens per prompt."""
    caches = [KVCache() for _ in model.blocks]
    ragged_greedy(model, prompts, n_new, caches=caches)
    return sum(cache.nbytes for cache in caches)


def best_kv_plan(measure: Callable[[int, torch.dtype], int], n_head: int, budget: int) -> Plan | None:
    """The first choice of kv_choices(n_head) whose measured bytes `measure(kv, dtype)` are at most `budget`, else None."""
    for kv, dtype in kv_choices(n_head):
        if measure(kv, dtype) <= budget:
            return kv, dtype
    return None


__all__ = ["KV_DTYPES", "Plan", "best_kv_plan", "kv_choices", "served_cache_bytes", "shaped_model"]
