"""Attention: the mask, the explicit path against PyTorch's fused kernel, multi-head against nn.MultiheadAttention."""

import math

import pytest
import torch
import torch.nn.functional as F

from utils.attention import (
    KVCache,
    MultiHeadAttention,
    attention_weights,
    causal_mask,
    scaled_dot_product_attention,
)
from utils.positional import rotary_cos_sin


def test_causal_mask_is_zero_on_and_below_the_diagonal_and_minus_inf_above():
    mask = causal_mask(4)
    assert mask.shape == (4, 4)
    assert torch.equal(mask.tril(), torch.zeros(4, 4))
    assert torch.isinf(mask[0, 1]) and mask[0, 1] < 0
    assert int(torch.isinf(mask).sum()) == 6


def test_causal_mask_with_offset_lets_new_queries_see_the_past():
    mask = causal_mask(2, offset=3)  # queries at positions 3 and 4, keys 0..4
    assert mask.shape == (2, 5)
    assert torch.equal(torch.isinf(mask), torch.tensor([[False] * 4 + [True], [False] * 5]))


def test_weights_are_a_distribution_over_keys_and_masked_keys_get_zero():
    torch.manual_seed(0)
    q, k = torch.randn(2, 5, 8), torch.randn(2, 5, 8)
    weights = attention_weights(q, k, causal_mask(5))
    assert torch.allclose(weights.sum(-1), torch.ones(2, 5))
    assert torch.equal(weights.triu(1), torch.zeros_like(weights))


def test_weights_follow_the_formula_by_hand():
    q, k = torch.tensor([[[1.0, 0.0]]]), torch.tensor([[[1.0, 0.0], [0.0, 1.0]]])
    expected = torch.softmax(torch.tensor([1 / math.sqrt(2), 0.0]), dim=0)
    assert torch.allclose(attention_weights(q, k)[0, 0], expected)


@pytest.mark.parametrize("causal", [True, False])
def test_explicit_attention_matches_torch_fused_attention(causal):
    torch.manual_seed(1)
    q, k, v = torch.randn(2, 3, 6, 8), torch.randn(2, 3, 6, 8), torch.randn(2, 3, 6, 4)
    bias = torch.randn(3, 6, 6)
    mask = causal_mask(6) if causal else None
    ours, _ = scaled_dot_product_attention(q, k, v, mask, bias)
    full = bias + (mask if causal else 0)
    theirs = F.scaled_dot_product_attention(q, k, v, attn_mask=full)
    assert torch.allclose(ours, theirs, atol=1e-5)


def test_attention_rejects_mismatched_key_size():
    with pytest.raises(ValueError, match="d_k"):
        attention_weights(torch.randn(1, 2, 4), torch.randn(1, 2, 5))


def test_split_and_merge_heads_are_inverse_and_slice_columns():
    mha = MultiHeadAttention(12, 3)
    x = torch.randn(2, 5, 12)
    heads = mha.split_heads(x)
    assert heads.shape == (2, 3, 5, 4)
    assert torch.equal(heads[:, 1], x[:, :, 4:8])
    assert torch.equal(mha.merge_heads(heads), x)


def test_d_model_must_divide_into_heads():
    with pytest.raises(ValueError, match="divisible"):
        MultiHeadAttention(10, 3)


@pytest.mark.parametrize("causal", [True, False])
def test_multi_head_attention_matches_torch_multihead_attention(causal):
    torch.manual_seed(2)
    d, heads, T = 16, 4, 7
    ours = MultiHeadAttention(d, heads).eval()
    theirs = torch.nn.MultiheadAttention(d, heads, batch_first=True).eval()
    with torch.no_grad():
        theirs.in_proj_weight.copy_(torch.cat([ours.q_proj.weight, ours.k_proj.weight, ours.v_proj.weight]))
        theirs.in_proj_bias.copy_(torch.cat([ours.q_proj.bias, ours.k_proj.bias, ours.v_proj.bias]))
        theirs.out_proj.weight.copy_(ours.out_proj.weight)
        theirs.out_proj.bias.copy_(ours.out_proj.bias)
    x = torch.randn(3, T, d)
    mask = causal_mask(T) if causal else None
    expected, expected_weights = theirs(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
    for need_weights in (True, False):
        y, weights = ours(x, causal=causal, need_weights=need_weights)
        assert torch.allclose(y, expected, atol=1e-5)
    assert torch.allclose(weights if weights is not None else ours(x, causal, need_weights=True)[1], expected_weights, atol=1e-6)


@pytest.mark.parametrize("with_bias", [False, True])
def test_explicit_and_fused_paths_agree_with_rotary_bias_and_cache(with_bias):
    torch.manual_seed(3)
    mha = MultiHeadAttention(16, 2).eval()
    x = torch.randn(2, 6, 16)
    bias = torch.randn(2, 6, 6) if with_bias else None
    rotary = rotary_cos_sin(6, 8)
    fused, none = mha(x, bias=bias, rotary=rotary)
    explicit, weights = mha(x, bias=bias, rotary=rotary, need_weights=True)
    assert none is None and weights.shape == (2, 2, 6, 6)
    assert torch.allclose(fused, explicit, atol=1e-5)
    # the same positions fed in two chunks through a cache give the same outputs
    cache = KVCache()
    cos, sin = rotary
    first, _ = mha(x[:, :4], bias=None if bias is None else bias[:, :4, :4], rotary=(cos[:4], sin[:4]), cache=cache)
    second, w2 = mha(x[:, 4:], bias=None if bias is None else bias[:, 4:, :], rotary=(cos[4:], sin[4:]), cache=cache, need_weights=True)
    assert cache.length == 6 and w2.shape == (2, 2, 2, 6)
    assert torch.allclose(torch.cat([first, second], dim=1), fused, atol=1e-5)


def test_wrong_input_width_is_a_clear_error():
    with pytest.raises(ValueError, match="expected input"):
        MultiHeadAttention(8, 2)(torch.randn(2, 3, 6))
