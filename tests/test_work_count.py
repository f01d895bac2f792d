"""utils.work_count: the counts notebook 10's shows rely on."""

import torch

from utils.attention import KVCache, MultiHeadAttention, PreallocatedKVCache
from utils.work_count import FunctionCalls, elements_written, positions_per_call, tensor_bytes


def test_elements_written_counts_copies_not_views() -> None:
    row = torch.randn(1, 2, 1, 4)  # (B, H, 1, Dh)
    grown, reserved = KVCache(), PreallocatedKVCache(capacity=64)
    for cache in (grown, reserved):
        for _ in range(10):
            cache.append(row, row)
    assert elements_written(reserved.append, row, row) == 2 * row.numel()  # one new row per tensor, however full
    assert elements_written(grown.append, row, row) == 2 * 11 * row.numel()  # torch.cat copies all it holds
    assert elements_written(lambda t: t[:, :3], torch.zeros(2, 5)) == 0  # a view copies nothing
    assert elements_written(lambda t: t.add_(1), torch.zeros(2, 5)) == 10


def test_positions_per_call_and_function_calls() -> None:
    attention = MultiHeadAttention(d_model=16, n_heads=2)
    x = torch.randn(3, 7, 16)  # (B, T, D)
    with FunctionCalls(torch.nn.functional.scaled_dot_product_attention, torch.nn.functional.linear) as work:
        calls = positions_per_call([attention.k_proj, attention], lambda: attention(x, causal=True))
    assert calls == [[7], [7]]
    assert [name for name, _, _ in work.calls].count("scaled_dot_product_attention") == 1
    weights = [weight for name, _, weight in work.calls if name == "linear"]
    assert len(weights) == len(set(weights)) == 4  # q, k, v, out: each weight once
    assert not attention.k_proj._forward_hooks  # the hooks are removed


def test_tensor_bytes_counts_each_storage_once() -> None:
    base = torch.zeros(4, 8)  # 128 bytes
    holder = type("Holder", (), {})()
    holder.a, holder.views, holder.more = base, [base[:1], (base[2:],)], {"x": torch.zeros(2, dtype=torch.float64)}
    assert tensor_bytes(holder) == 128 + 16
    cache = PreallocatedKVCache(capacity=10)
    cache.append(torch.zeros(1, 1, 2, 4), torch.zeros(1, 1, 2, 4))
    assert tensor_bytes(cache) == cache.nbytes == 2 * 10 * 4 * 4
