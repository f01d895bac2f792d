"""Notebook 05, exercise 1's layers that may read the future, their labels and the reference check."""

import pytest
import torch

from utils.attention import causal_mask, scaled_dot_product_attention
from utils.attention_lm import AttentionLMConfig, previous_token_projections, train_previous_token
from utils.causal_probe import (CAUSAL_KINDS, LEAK, LEAKING_KINDS, ROUNDING, hand_layer, judge_leak, largest_leak,
                                layer_cases, leaks_by_construction, leaks_future, model_cases)
from utils.exercise_cases import case


@pytest.mark.parametrize("kind", CAUSAL_KINDS + LEAKING_KINDS)
def test_each_kind_leaks_exactly_when_its_label_says(kind):
    for T in (2, 5, 9, 10, 24):
        for seed in range(3):
            leak = largest_leak(hand_layer(kind, 8, seed), T, 8, seed=seed)
            assert (leak > LEAK) == leaks_by_construction(kind, T), (kind, T, seed, leak)
            assert leak > 3 * LEAK or leak < ROUNDING, (kind, T, seed, leak)  # far from the threshold either way


def test_some_causal_layers_move_by_rounding_only():
    moved = [largest_leak(hand_layer("global_max", 8, 1), 6, 8, seed=s) for s in range(4)]
    assert max(moved) > 0 and max(moved) < ROUNDING


def test_graded_cases_and_the_reference_agree():
    model, _ = train_previous_token(AttentionLMConfig(16, d_model=32, n_head=2), 5, 16, batch_size=8, seed=0)
    cases = layer_cases((2, 10), (4, 8), seed=3) + model_cases(model, (2, 7), seed=0)
    assert {c.context["leaks"] for c in cases} == {True, False}
    for current in cases:
        answer = leaks_future(*current.kwargs.values())
        assert judge_leak(current, answer) is None, current.label
        assert judge_leak(current, not answer) is not None


def test_the_judge_reads_bools_only():
    current = case(layer=None, context={"leaks": True})
    assert judge_leak(current, torch.tensor(True)) is None
    assert "True or False" in judge_leak(current, 1.0)


@pytest.mark.parametrize("T", [2, 3, 16, 64])
def test_previous_token_projections_stay_in_the_band(T):
    w_q, w_k = previous_token_projections(T)
    _, weights = scaled_dot_product_attention(w_q, w_k, torch.zeros(T, 1), causal_mask(T))
    previous = weights.diagonal(-1)
    assert bool(((previous > 0.9) & (previous < 0.97)).all())
