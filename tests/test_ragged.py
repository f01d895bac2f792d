"""Ragged batches: left padding, a padding mask and position ids give each prompt what it gets alone."""

import pytest
import torch

from utils.ragged import left_pad, padding_bias, position_ids, ragged_greedy
from utils.transformer import TransformerConfig, TransformerLM

PROMPTS = [[3, 1, 4, 1, 5, 9, 2], [6, 5], [3, 5, 8, 9]]


def _model(positional: str) -> TransformerLM:
    torch.manual_seed(0)
    return TransformerLM(TransformerConfig(12, context_length=32, n_layer=2, n_head=2, d_model=16,
                                           positional=positional)).eval()


@torch.no_grad()
def _alone(model, prompt, n):
    """Greedy tokens and per-step logits (n, V) of one prompt through the model's own step()."""
    logits, state = model.step(torch.tensor([prompt]), model.start_state(1))
    tokens, rows = [], []
    for _ in range(n):
        rows.append(logits[0])
        tokens.append(int(logits[0].argmax()))
        logits, state = model.step(torch.tensor([[tokens[-1]]]), state)
    return tokens, torch.stack(rows)


def test_left_pad_and_positions():
    ids, real = left_pad([[7, 8, 9], [5]], pad_id=0)
    assert ids.tolist() == [[7, 8, 9], [0, 0, 5]]
    assert real.tolist() == [[True, True, True], [False, False, True]]
    assert position_ids(real).tolist() == [[0, 1, 2], [0, 0, 0]]


def test_padding_bias_blocks_padding_keys_but_never_a_whole_row():
    bias = padding_bias(torch.tensor([[False, True, True]]), 3)  # (1, 1, 3, 3)
    assert torch.isinf(bias[0, 0, 1:, 0]).all() and bias[0, 0, 0, 0] == 0  # the padding query sees itself
    assert (bias[0, 0, :, 1:] == 0).all()


@pytest.mark.parametrize("positional", ["learned", "rotary", "none"])
def test_ragged_batch_equals_each_prompt_alone(positional):
    model = _model(positional)
    tokens, logits = ragged_greedy(model, PROMPTS, 6)
    assert logits.shape == (3, 6, 12)
    for row, prompt in enumerate(PROMPTS):
        want_tokens, want_logits = _alone(model, prompt, 6)
        assert tokens[row] == want_tokens
        assert torch.allclose(logits[row], want_logits, atol=1e-5)


def test_positions_counted_from_the_padding_break_learned_positions():
    model = _model("learned")
    _, logits = ragged_greedy(model, PROMPTS, 3, offset_positions=False)
    _, want = _alone(model, PROMPTS[1], 3)  # the most padded row
    assert (logits[1] - want).abs().max() > 1e-2


def test_rotary_positions_are_shift_invariant():
    model = _model("rotary")
    _, logits = ragged_greedy(model, PROMPTS, 3, offset_positions=False)
    _, want = _alone(model, PROMPTS[1], 3)
    assert torch.allclose(logits[1], want, atol=1e-4)  # q.k depends on the distance only


def test_bad_models_fail_clearly():
    with pytest.raises(ValueError, match="learned, rotary or no positions"):
        ragged_greedy(_model("sinusoidal"), PROMPTS, 2)
    with pytest.raises(ValueError, match="at least one token"):
        left_pad([[1], []])


def test_without_the_padding_mask_real_tokens_see_the_padding():
    model = _model("rotary")
    _, logits = ragged_greedy(model, PROMPTS, 3, mask_padding=False)
    _, want = _alone(model, PROMPTS[1], 3)
    assert (logits[1] - want).abs().max() > 1e-3
