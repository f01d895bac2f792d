"""utils.banded: the Transformer whose attention reaches back a fixed number of tokens (notebook 12's control)."""

import torch

from utils.banded import BandedTransformerLM, band_bias, bands_for_reach
from utils.precision_check import check_same
from utils.transformer import TransformerConfig, TransformerLM


def _config() -> TransformerConfig:
    return TransformerConfig(50, context_length=32, n_layer=2, n_head=2, d_model=16, positional="learned")


def test_band_bias_masks_only_keys_further_back_than_the_band() -> None:
    bias = band_bias(3, 2, back=1)  # queries at positions 2, 3, 4; keys 0..4
    allowed = torch.isfinite(bias)
    assert allowed.tolist() == [[False, True, True, True, True], [False, False, True, True, True],
                                [False, False, False, True, True]]  # the causal mask removes the future separately


def test_bands_add_up_to_the_reach() -> None:
    assert bands_for_reach(4, 2) == (1, 2)
    assert bands_for_reach(1, 3) == (0, 0, 0)
    assert sum(bands_for_reach(9, 4)) == 8


def test_tokens_beyond_the_reach_change_nothing_and_tokens_inside_do() -> None:
    torch.manual_seed(0)
    model = BandedTransformerLM(_config(), reach=4).eval()
    x = torch.randint(0, 50, (3, 12))  # (B, T)
    far, near = x.clone(), x.clone()
    far[:, :8] = torch.randint(0, 50, (3, 8))  # everything more than 3 tokens before the last position
    near[:, 9] = (near[:, 9] + 1) % 50  # two tokens before the last position
    with torch.no_grad():
        out, out_far, out_near = model(x)[:, -1], model(far)[:, -1], model(near)[:, -1]  # (B, V) each
    check_same(out_far, out, "the last position's logits with and without the far tokens changed")
    assert (out_near - out).abs().max() > 1e-4, "a token inside the reach must change the prediction"


def test_a_reach_longer_than_the_input_is_the_plain_transformer() -> None:
    torch.manual_seed(0)
    full = TransformerLM(_config()).eval()
    banded = BandedTransformerLM(_config(), reach=40).eval()
    banded.load_state_dict(full.state_dict())
    x = torch.randint(0, 50, (2, 10))
    with torch.no_grad():
        check_same(banded(x), full(x), "a banded model reaching past the input and the TransformerLM")


def test_cached_steps_give_the_logits_of_the_full_forward() -> None:
    torch.manual_seed(0)
    model = BandedTransformerLM(_config(), reach=4).eval()
    x = torch.randint(0, 50, (2, 9))
    with torch.no_grad():
        state, steps = model.start_state(2), []
        for t in range(x.shape[1]):
            logits, state = model.step(x[:, t : t + 1], state)  # (B, V)
            steps.append(logits)
        check_same(torch.stack(steps, dim=1), model(x), "step() with the KV cache and forward()")
