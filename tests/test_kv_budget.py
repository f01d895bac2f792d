"""The KV-cache plan of notebook 10's exercise 3: choices in order, measured caches, the best choice that fits."""

import pytest
import torch

from utils.generation_cost import cache_bytes_formula
from utils.kv_budget import best_kv_plan, kv_choices, served_cache_bytes, shaped_model


def test_choices_best_first():
    assert kv_choices(6) == [(6, torch.float32), (6, torch.bfloat16), (3, torch.float32), (3, torch.bfloat16),
                             (2, torch.float32), (2, torch.bfloat16), (1, torch.float32), (1, torch.bfloat16)]
    assert kv_choices(1) == [(1, torch.float32), (1, torch.bfloat16)]
    with pytest.raises(ValueError):
        kv_choices(0)


@pytest.mark.parametrize("kv, dtype, size", [(6, torch.float32, 4), (3, torch.bfloat16, 2), (1, torch.float32, 4)])
def test_served_cache_holds_padded_batch_and_every_token_read(kv, dtype, size):
    model = shaped_model(11, n_layer=2, n_head=6, d_model=24, n_kv_head=kv, dtype=dtype, context_length=32)
    held = served_cache_bytes(model, [[1, 2, 3, 4, 5], [6, 7], [8, 9, 10]], n_new=4)  # 3 rows of 5 + 4 positions
    assert held == cache_bytes_formula(2, kv, 4, 5 + 4, size, batch_size=3)


def test_best_plan_prefers_heads_then_width_and_fits():
    table = {(kv, dtype): kv * (4 if dtype == torch.float32 else 2) for kv, dtype in kv_choices(6)}
    measure = lambda kv, dtype: table[(kv, dtype)]
    assert best_kv_plan(measure, 6, 24) == (6, torch.float32)
    assert best_kv_plan(measure, 6, 12) == (6, torch.bfloat16)  # (3, float32) costs as much: more heads first
    assert best_kv_plan(measure, 6, 11) == (3, torch.bfloat16)
    assert best_kv_plan(measure, 6, 1) is None
