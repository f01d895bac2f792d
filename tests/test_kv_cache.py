"""The KV cache variants: preallocated, reordered for beam search, fewer key/value heads (GQA/MQA)."""

import pytest
import torch

from utils.attention import KVCache, MultiHeadAttention, PreallocatedKVCache
from utils.generation_cost import cache_bytes_formula
from utils.transformer import TransformerConfig, TransformerLM


def _model(**kwargs) -> TransformerLM:
    torch.manual_seed(0)
    config = dict(vocab_size=11, context_length=32, n_layer=2, n_head=4, d_model=32, positional="rotary")
    return TransformerLM(TransformerConfig(**{**config, **kwargs})).eval()


def _step_logits(model: TransformerLM, ids: torch.Tensor, **start) -> torch.Tensor:
    """Logits after each token, fed one at a time through step(): (B, T, V)."""
    state, rows = model.start_state(ids.shape[0], **start), []
    for t in range(ids.shape[1]):
        logits, state = model.step(ids[:, t : t + 1], state)
        rows.append(logits)
    return torch.stack(rows, dim=1)


@pytest.mark.parametrize("n_kv_head", [None, 2, 1])
def test_cached_steps_equal_the_full_forward(n_kv_head):
    model = _model(n_kv_head=n_kv_head)
    ids = torch.randint(0, 11, (2, 12), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        full = model(ids)  # (2, 12, V)
        assert torch.allclose(_step_logits(model, ids), full, atol=1e-5)
        assert torch.allclose(_step_logits(model, ids, capacity=12), full, atol=1e-5)


def test_preallocated_cache_matches_the_concatenating_one():
    k, v = torch.randn(2, 3, 5, 4), torch.randn(2, 3, 5, 4)
    grown, fixed = KVCache(), PreallocatedKVCache(8)
    for t in range(5):
        a, b = grown.append(k[:, :, t : t + 1], v[:, :, t : t + 1]), fixed.append(k[:, :, t : t + 1], v[:, :, t : t + 1])
        assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    assert fixed.length == grown.length == 5
    assert fixed.nbytes == 2 * 2 * 3 * 8 * 4 * 4 and grown.nbytes == 2 * 2 * 3 * 5 * 4 * 4  # room for 8 against 5 used
    with pytest.raises(ValueError, match="holds 8 positions"):
        fixed.append(torch.randn(2, 3, 4, 4), torch.randn(2, 3, 4, 4))
    index = torch.tensor([1, 1])
    grown.reorder(index)
    fixed.reorder(index)
    assert torch.equal(grown.k, fixed.k) and torch.equal(grown.k[0], k[1])


def test_fewer_kv_heads_shrink_the_cache_and_the_projections():
    full, grouped, single = _model(), _model(n_kv_head=2), _model(n_kv_head=1)
    assert full.blocks[0].attention.k_proj.weight.shape == (32, 32)  # the default keeps today's shapes
    assert grouped.blocks[0].attention.k_proj.weight.shape == (16, 32)
    ids = torch.randint(0, 11, (1, 10), generator=torch.Generator().manual_seed(2))
    sizes = {}
    for name, model in (("full", full), ("grouped", grouped), ("single", single)):
        with torch.no_grad():
            _, state = model.step(ids, model.start_state(1))
        sizes[name] = sum(cache.nbytes for cache in state.caches)
        heads = model.config.n_kv_head or model.config.n_head
        assert sizes[name] == cache_bytes_formula(n_layer=2, n_kv_heads=heads, d_head=8, length=10, bytes_per_value=4)
    assert sizes["full"] == 2 * sizes["grouped"] == 4 * sizes["single"]
    with pytest.raises(ValueError, match="multiple of n_kv_head"):
        TransformerConfig(11, n_head=4, d_model=32, n_kv_head=3)
    with pytest.raises(ValueError, match="multiple of n_kv_heads"):
        MultiHeadAttention(32, 4, n_kv_heads=3)
