"""The one-layer attention model of notebook 05 and its previous-token task."""

import pytest
import torch

from utils.attention_lm import (AttentionLMConfig, OneLayerAttentionLM, previous_token_accuracy,
                                previous_token_batches, train_previous_token)
from utils.interface import IGNORE_INDEX


def test_shapes_weights_and_tied_keys():
    model = OneLayerAttentionLM(AttentionLMConfig(10, d_model=16, n_head=2, tie_qk=True))
    idx = torch.randint(0, 10, (3, 7))
    logits, (weights,) = model.forward_with_attention(idx)
    assert logits.shape == (3, 7, 10) and weights.shape == (3, 2, 7, 7)
    assert torch.allclose(weights.sum(-1), torch.ones(3, 2, 7)) and bool((weights.triu(1) == 0).all())
    assert model.w_k is None and sum(p.numel() for p in model.parameters()) < sum(
        p.numel() for p in OneLayerAttentionLM(AttentionLMConfig(10, d_model=16, n_head=2)).parameters())


def test_same_token_same_input_vector_and_causal_outputs():
    model = OneLayerAttentionLM(AttentionLMConfig(10, d_model=16, n_head=2))
    idx = torch.tensor([[1, 2, 1, 3, 1]])
    x, attended, _ = model.attend(idx)
    assert torch.equal(x[0, 0], x[0, 2])  # rotary positions never touch the values
    changed = idx.clone()
    changed[0, 4] = 7
    assert torch.allclose(model.attend(changed)[1][0, :4], attended[0, :4], atol=1e-6)


def test_previous_token_batches_targets():
    x, y = previous_token_batches(5, 6, 4, torch.Generator().manual_seed(0))()
    assert x.shape == y.shape == (4, 6)
    assert bool((y[:, 0] == IGNORE_INDEX).all()) and torch.equal(y[:, 1:], x[:, :-1])


def test_untied_model_learns_previous_token_task():
    model, history = train_previous_token(AttentionLMConfig(8, d_model=16, n_head=1, residual=False), 120, length=8)
    assert history.train_loss[-1] < history.train_loss[0]
    assert previous_token_accuracy(model, 8, 8) > 0.9


def test_config_validation():
    with pytest.raises(ValueError, match="even"):
        AttentionLMConfig(10, d_model=12, n_head=4)
    with pytest.raises(ValueError):
        previous_token_batches(1, 5, 2, torch.Generator())
