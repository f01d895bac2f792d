"""Positional encodings: the sinusoidal formula and shift, learned limits, relative offsets, RoPE's offset property."""

import math

import pytest
import torch

from utils.positional import (
    POSITIONAL_KINDS,
    LearnedPositionalEmbedding,
    RelativePositionBias,
    apply_rotary,
    rotary_cos_sin,
    sinusoidal_encoding,
    sinusoidal_shift_matrix,
)


def test_kinds_are_the_documented_five():
    assert POSITIONAL_KINDS == ("none", "sinusoidal", "learned", "relative", "rotary")


def test_sinusoidal_follows_the_formula():
    pe = sinusoidal_encoding(50, 16)
    assert pe.shape == (50, 16)
    pos, i = 7, 3
    assert math.isclose(float(pe[pos, 2 * i]), math.sin(pos / 10000 ** (2 * i / 16)), abs_tol=1e-6)
    assert math.isclose(float(pe[pos, 2 * i + 1]), math.cos(pos / 10000 ** (2 * i / 16)), abs_tol=1e-6)
    assert torch.allclose(sinusoidal_encoding(5, 16, offset=45), pe[45:])


def test_sinusoidal_odd_width_works():
    assert sinusoidal_encoding(4, 7).shape == (4, 7)


@pytest.mark.parametrize("k", [1, 5, 17])
def test_sinusoidal_shift_is_a_fixed_linear_map(k):
    pe = sinusoidal_encoding(80 + k, 32)
    shift = sinusoidal_shift_matrix(k, 32)
    assert torch.allclose(pe[k:] , pe[:-k] @ shift.T, atol=1e-4)
    assert torch.allclose(shift @ shift.T, torch.eye(32), atol=1e-5)  # a rotation


def test_learned_embedding_refuses_positions_past_its_length():
    learned = LearnedPositionalEmbedding(8, 4)
    assert learned(8).shape == (8, 4)
    assert torch.equal(learned(3, offset=5), learned(8)[5:])
    with pytest.raises(ValueError, match="crop"):
        learned(9)


def test_relative_bias_depends_only_on_the_offset_and_is_clipped():
    torch.manual_seed(0)
    relative = RelativePositionBias(n_heads=3, max_distance=4)
    torch.nn.init.normal_(relative.bias.weight)
    bias = relative(10)  # (H, T, T)
    assert bias.shape == (3, 10, 10)
    for i, j in [(5, 3), (9, 7), (2, 0)]:  # offset 2 everywhere
        assert torch.equal(bias[:, i, j], bias[:, 5, 3])
    assert torch.equal(bias[:, 9, 0], bias[:, 3, 0])  # offsets 9 and 3 are both clipped to 3
    assert not torch.equal(bias[:, 5, 3], bias[:, 3, 5])
    assert torch.equal(relative(2, offset=8), bias[:, 8:, :])


def test_rotary_score_depends_only_on_the_offset():
    torch.manual_seed(1)
    d = 16
    q, k = torch.randn(d), torch.randn(d)
    cos, sin = rotary_cos_sin(40, d)
    rotated_q = apply_rotary(q.expand(40, d), cos, sin)  # q placed at every position
    rotated_k = apply_rotary(k.expand(40, d), cos, sin)
    scores = rotated_q @ rotated_k.T  # (40, 40): score of q at i with k at j
    for offset in (0, 3, -5):
        diagonal = torch.diagonal(scores, offset=-offset)
        assert torch.allclose(diagonal, diagonal[0].expand_as(diagonal), atol=1e-4)
    assert not torch.allclose(scores[10, 7], scores[10, 2])  # different offsets, different scores


def test_rotary_keeps_norms_and_is_identity_at_position_zero():
    x = torch.randn(2, 5, 8)
    cos, sin = rotary_cos_sin(5, 8)
    rotated = apply_rotary(x, cos, sin)
    assert torch.allclose(rotated.norm(dim=-1), x.norm(dim=-1), atol=1e-5)
    assert torch.allclose(rotated[:, 0], x[:, 0])
    cos_later, sin_later = rotary_cos_sin(2, 8, offset=3)
    assert torch.allclose(cos_later, cos[3:]) and torch.allclose(sin_later, sin[3:])


def test_rotary_needs_even_head_size_and_matching_shapes():
    with pytest.raises(ValueError, match="even"):
        rotary_cos_sin(4, 7)
    cos, sin = rotary_cos_sin(4, 8)
    with pytest.raises(ValueError, match="do not fit"):
        apply_rotary(torch.randn(5, 8), cos, sin)
