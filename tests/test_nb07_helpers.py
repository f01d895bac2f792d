"""Tests for the helpers of notebook 07: norm_demo (LayerNorm vs BatchNorm), masks, lr_grid."""

import math

import pytest
import torch
from torch import nn

from utils.attention import causal_mask
from utils.interface import LanguageModel
from utils.lr_grid import final_loss, grid_curve, lr_warmup_grid
from utils.masks import as_additive, bidirectional_pattern, causal_pattern, cross_pattern, mask_patterns
from utils.norm_demo import batch_norm_tokens, masked_batch_statistics, padded_batch, padding_drift, train_eval_gap
from utils.training import TrainHistory


# --- norm_demo ---------------------------------------------------------------------------------

def test_padded_batch_pads_and_masks():
    a, b = torch.ones(3, 2), 2 * torch.ones(1, 2)
    batch, mask = padded_batch([a, b], pad_value=-1.0)
    assert batch.shape == (2, 3, 2) and mask.tolist() == [[True, True, True], [True, False, False]]
    assert torch.equal(batch[1, 1:], -torch.ones(2, 2)) and torch.equal(batch[0], a)


def test_padded_batch_rejects_bad_input():
    with pytest.raises(ValueError, match="at least one"):
        padded_batch([])
    with pytest.raises(ValueError, match="same number of features"):
        padded_batch([torch.ones(2, 3), torch.ones(2, 4)])


def test_batch_norm_tokens_normalises_each_feature_over_batch_and_time():
    x = torch.randn(3, 5, 4) * 3 + 2  # (B, T, C)
    out = batch_norm_tokens(nn.BatchNorm1d(4).train(), x)
    assert out.shape == x.shape
    assert torch.allclose(out.reshape(-1, 4).mean(0), torch.zeros(4), atol=1e-5)
    assert torch.allclose(out.reshape(-1, 4).var(0, unbiased=False), torch.ones(4), atol=1e-3)


def test_padding_drift_layernorm_flat_batchnorm_moves():
    torch.manual_seed(0)
    drift = padding_drift(torch.randn(5, 6) * 2 + 1, [4, 8, 16])
    assert len(drift["layernorm"]) == len(drift["batchnorm"]) == 3
    assert max(drift["layernorm"]) < 1e-5
    assert min(drift["batchnorm"]) > 0.05 and drift["batchnorm"][-1] > drift["batchnorm"][0]


def test_padding_drift_rejects_non_matrix():
    with pytest.raises(ValueError, match=r"\(T, C\)"):
        padding_drift(torch.randn(2, 5, 6), [2])


def test_masked_batch_statistics_ignores_padding():
    x = torch.tensor([[[1.0], [3.0], [100.0]], [[5.0], [100.0], [100.0]]])  # (2, 3, 1)
    mask = torch.tensor([[True, True, False], [True, False, False]])
    mean, var = masked_batch_statistics(x, mask)
    assert torch.allclose(mean, torch.tensor([3.0])) and torch.allclose(var, torch.tensor([8 / 3]))


def test_train_eval_gap_zero_for_layernorm_positive_for_batchnorm():
    torch.manual_seed(0)
    warm = [torch.randn(4, 6, 3) for _ in range(5)]
    x = torch.randn(4, 6, 3) * 3 - 2
    assert train_eval_gap(nn.LayerNorm(3), x, warm) < 1e-6
    assert train_eval_gap(nn.BatchNorm1d(3), x, warm) > 0.5


def test_batch_norm_fails_on_a_single_token_layer_norm_does_not():
    with pytest.raises(ValueError):
        batch_norm_tokens(nn.BatchNorm1d(4).train(), torch.randn(1, 1, 4))
    assert torch.isfinite(nn.LayerNorm(4)(torch.randn(1, 1, 4))).all()


# --- masks -------------------------------------------------------------------------------------

def test_mask_patterns_shapes_and_values():
    patterns = mask_patterns(source_length=4, target_length=3)
    assert patterns["encoder-only (BERT)"].shape == (4, 4) and bool(patterns["encoder-only (BERT)"].all())
    assert torch.equal(patterns["decoder-only (GPT)"], torch.tensor([[1, 0, 0], [1, 1, 0], [1, 1, 1]], dtype=torch.bool))
    assert patterns["enc-dec: cross-attention"].shape == (3, 4)
    assert all(p.dtype == torch.bool for p in patterns.values())


def test_causal_pattern_matches_the_attention_module_mask():
    for length in (1, 2, 7):
        assert torch.equal(as_additive(causal_pattern(length)), causal_mask(length))


def test_as_additive_and_errors():
    additive = as_additive(torch.tensor([[True, False]]))
    assert additive[0, 0] == 0 and additive[0, 1] == -math.inf
    with pytest.raises(ValueError, match="boolean"):
        as_additive(torch.ones(2, 2))
    for bad in (0, -1, 2.5):
        with pytest.raises(ValueError, match="positive int"):
            causal_pattern(bad)
    with pytest.raises(ValueError):
        bidirectional_pattern(0)
    with pytest.raises(ValueError):
        cross_pattern(2, 0)


# --- lr_grid -----------------------------------------------------------------------------------

class TinyBigram(LanguageModel):
    """A bigram logit table: enough to test the grid mechanics quickly."""

    def __init__(self, vocab_size: int = 5):
        super().__init__()
        self.vocab_size = vocab_size
        self.table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx):
        return self.table(idx)


def _batches():
    generator = torch.Generator().manual_seed(0)
    tokens = torch.arange(200) % 5  # a fully predictable cycle 0 1 2 3 4 0 ...

    def sample():
        starts = torch.randint(0, 190, (4,), generator=generator)
        windows = tokens[starts[:, None] + torch.arange(9)]  # (4, 9)
        return windows[:, :-1], windows[:, 1:]

    return sample


def test_lr_warmup_grid_runs_every_cell_and_learns():
    runs = lr_warmup_grid(lambda placement: TinyBigram(), _batches, ["a", "b"], [1e-3, 1e-1], [0, 3], steps=12)
    assert len(runs) == 2 * 2 * 2
    assert {(r.placement, r.lr, r.warmup_steps) for r in runs} == {(p, lr, w) for p in "ab" for lr in (1e-3, 1e-1) for w in (0, 3)}
    lrs, losses = grid_curve(runs, "a", 0)
    assert lrs == [1e-3, 1e-1] and losses[1] < losses[0] - 0.5, losses
    # same seed, same model, same batches: placements "a" and "b" are identical runs here
    assert grid_curve(runs, "a", 3)[1] == grid_curve(runs, "b", 3)[1]


def test_lr_warmup_grid_validates():
    with pytest.raises(ValueError, match="warm-up"):
        lr_warmup_grid(lambda p: TinyBigram(), _batches, ["a"], [1e-3], [10], steps=10)
    with pytest.raises(ValueError, match="at least one"):
        lr_warmup_grid(lambda p: TinyBigram(), _batches, [], [1e-3], [0], steps=10)
    with pytest.raises(ValueError, match="no runs"):
        grid_curve([], "a", 0)


def test_final_loss_is_inf_for_diverged_runs():
    history = TrainHistory(train_loss=[3.0, 2.0, 1.0])
    assert final_loss(history, last=2) == 1.5
    history.diverged = True
    assert final_loss(history) == math.inf
    assert final_loss(TrainHistory(train_loss=[1.0, float("nan")])) == math.inf


def test_post_ln_last_layer_gradient_larger_than_pre_ln_at_xavier_init():
    from utils.lr_grid import ffn_gradient_norms, xavier_initialise
    from utils.transformer import TransformerConfig, TransformerLM

    x = torch.randint(0, 20, (8, 16), generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, 20, (8, 16), generator=torch.Generator().manual_seed(1))
    last = {}
    for placement in ("pre", "post"):
        torch.manual_seed(0)
        model = xavier_initialise(TransformerLM(TransformerConfig(20, context_length=16, n_layer=8, n_head=2, d_model=32,
                                                                  norm_placement=placement)))
        norms = ffn_gradient_norms(model, x, y)
        assert len(norms) == 8 and all(n > 0 for n in norms)
        last[placement] = norms[-1]
    assert last["post"] > 1.5 * last["pre"]


def test_ffn_gradient_norms_needs_blocks():
    from utils.lr_grid import ffn_gradient_norms

    with pytest.raises(ValueError, match="blocks"):
        ffn_gradient_norms(torch.nn.Linear(2, 2), torch.zeros(1, 2), torch.zeros(1, 2))
