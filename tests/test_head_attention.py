"""utils.head_attention: the reference of notebook 05's exercise 1 agrees with MultiHeadAttention and PyTorch's kernel."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from utils.attention import MultiHeadAttention
from utils.head_attention import heads_attention, random_head_cases, trained_head_cases


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("n_heads", [1, 2, 4])
def test_heads_attention_is_the_course_multi_head_attention_without_biases_or_projection(n_heads: int, causal: bool):
    torch.manual_seed(0)
    D = 8 * n_heads
    mha = MultiHeadAttention(D, n_heads)
    with torch.no_grad():
        for layer in (mha.q_proj, mha.k_proj, mha.v_proj):
            layer.bias.zero_()
        mha.out_proj.weight.copy_(torch.eye(D))
        mha.out_proj.bias.zero_()
    x = torch.randn(2, 9, D)  # (B, T, D)
    ours = heads_attention(x, mha.q_proj.weight.T, mha.k_proj.weight.T, mha.v_proj.weight.T, n_heads, causal)
    theirs, _ = mha(x, causal=causal)
    assert torch.allclose(ours, theirs, atol=1e-5)


def test_generated_cases_are_varied_and_match_pytorchs_kernel():
    cases = random_head_cases(7, 40)
    assert len(cases) == 40
    assert {c.kwargs["n_heads"] for c in cases} >= {1, 2, 4, 8} and {c.kwargs["causal"] for c in cases} == {True, False}
    for c in cases:
        x, W_Q, W_K, W_V, H, causal = c.kwargs.values()
        B, T, D = x.shape
        q, k, v = ((x @ W).view(B, T, H, D // H).transpose(1, 2) for W in (W_Q, W_K, W_V))  # (B, H, T, D/H) each
        fused = F.scaled_dot_product_attention(q, k, v, is_causal=causal).transpose(1, 2).reshape(B, T, D)
        assert torch.allclose(heads_attention(*c.kwargs.values()), fused, atol=1e-5)


def test_scaling_by_the_model_width_is_caught_with_several_heads_only():
    def model_width_scale(x, W_Q, W_K, W_V, n_heads, causal=True):
        B, T, D = x.shape
        q, k, v = ((x @ W).view(B, T, n_heads, D // n_heads) for W in (W_Q, W_K, W_V))
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / D ** 0.5
        if causal:
            scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        return torch.einsum("bhqk,bkhd->bqhd", scores.softmax(-1), v).reshape(B, T, D)

    differs = [not torch.allclose(model_width_scale(*c.kwargs.values()), heads_attention(*c.kwargs.values()), atol=1e-4)
               for c in random_head_cases(7, 40)]
    several = [c.kwargs["n_heads"] > 1 and c.kwargs["x"].shape[1] > 1 for c in random_head_cases(7, 40)]
    assert sum(differs) >= 0.8 * sum(several) and not any(d and not s for d, s in zip(differs, several))


def test_trained_cases_use_the_models_weights_and_heads():
    from utils.attention_lm import AttentionLMConfig, OneLayerAttentionLM

    model = OneLayerAttentionLM(AttentionLMConfig(16, d_model=32, n_head=4))
    cases = trained_head_cases(model, 16, (3, 9), seed=0)
    assert [c.kwargs["x"].shape for c in cases] == [(2, 3, 32), (2, 9, 32)]
    assert all(c.kwargs["n_heads"] == 4 and torch.equal(c.kwargs["W_Q"], model.w_q.weight.T) for c in cases)


def test_a_width_that_heads_do_not_divide_is_refused():
    with pytest.raises(ValueError, match="divisor"):
        heads_attention(torch.randn(1, 2, 6), torch.eye(6), torch.eye(6), torch.eye(6), 4)
