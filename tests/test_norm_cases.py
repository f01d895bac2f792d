"""utils.norm_cases: the padded batches and blocks of notebook 07's hidden tests, and the margins of the scaling probe."""

import torch

from utils.exercise_cases import sample_grid
from utils.norm_cases import (bare_forward, padded_features, padding_mask, placement_by_scaling, random_block,
                              scaling_growth, tiny_trained_lm, trained_hidden_states)
from utils.norm_demo import masked_batch_statistics


def test_padding_masks_keep_a_real_token_per_row():
    for pattern in ("right", "random", "one_token", "all_real"):
        for seed in range(5):
            mask = padding_mask(5, 7, pattern, seed)
            assert mask.shape == (5, 7) and bool(mask.any(dim=1).all())
    assert padding_mask(4, 6, "one_token", 0)[::2].sum(1).tolist() == [1, 1]
    right = padding_mask(6, 9, "right", 3)
    assert torch.equal(right, right.cummin(dim=1).values)  # real tokens first, then padding


def test_padded_features_are_seeded():
    a, b = padded_features(3, 5, 4, "random", 7), padded_features(3, 5, 4, "random", 7)
    assert torch.equal(a["x"], b["x"]) and torch.equal(a["mask"], b["mask"])


def test_scaling_probe_margins_on_generated_blocks():
    grid = [c for c in sample_grid(23, 48, placement=("pre", "post"), d_model=(8, 16, 24, 32, 48, 64), n_head=(1, 2, 4, 8),
                                   activation=("gelu", "relu"), weight_scale=(0.02, 1.0, 3.0))
            if c.kwargs["d_model"] % c.kwargs["n_head"] == 0]  # the grid of notebook 07's hidden test, its seeds
    for seed, case in enumerate(grid, start=500):
        block = random_block(seed=seed, **case.kwargs)
        growth = scaling_growth(bare_forward(block), case.kwargs["d_model"])
        if case.kwargs["placement"] == "pre":
            assert growth > 1000, (case.label, growth)  # the proof's bound: above 100
        else:
            assert growth < 10, (case.label, growth)  # the proof's bound: at most 9
        assert placement_by_scaling(bare_forward(block), case.kwargs["d_model"]) == case.kwargs["placement"]


def test_trained_models_and_their_hidden_states():
    for placement in ("pre", "post"):
        model = tiny_trained_lm(placement)
        for block in model.blocks:
            assert placement_by_scaling(bare_forward(block), 32) == placement
        case = trained_hidden_states(model, 1)
        assert case["x"].shape[:2] == case["mask"].shape and int(case["mask"].sum(1).min()) == 1
        mean, variance = masked_batch_statistics(case["x"], case["mask"])
        assert bool(torch.isfinite(mean).all()) and bool((variance > 0).all())
